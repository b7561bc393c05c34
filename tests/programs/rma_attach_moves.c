/* Conflicting RMA accesses to memory of a dynamic window while the target
 * attaches more memory next to it, in the middle of the epoch (branch
 * attachwatch). Rank 1 is the target: rank 0 puts to region T, then rank 1
 * attaches a region adjacent to T, then rank 2 puts to T (messages order
 * the three). In the program nothing moves; a replay lays adjacent regions
 * out in one allocation (traces/replay/AttachedLayout), so the attach moves
 * T to a larger one between the two puts. Where the puts overlap they
 * conflict (MPI-4.1 §12.7, rule 2): an undefined outcome the run reports,
 * and the replay must report too, at the same time.
 *   fence:  T = A, B attached after A; both puts to T[0,2) and T[1,3);
 *   lock:   shared locks (lock_all), T = A, B attached before A;
 *   pscw:   one exposure epoch, T = C, B attached between A and C, joining
 *           them into one block;
 *   apart:  fence, T = A, B after A, rank 2's put T[2,6) across the seam
 *           of A and B: no conflict (the replay must find none either).
 * 3 ranks: three undefined outcomes, at rank 2's puts. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

enum { kInts = 4 };  /* each region: 4 ints */
static const MPI_Aint kRegion = kInts * sizeof(int);

static void phase(const char* epoch, MPI_Group origins, MPI_Group target_group)
{
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win win;
  MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  int* mem = calloc(3 * kInts, sizeof(int)); /* A [0,4) B [4,8) C [8,12) */
  int* t = mem;                              /* the region both put to */
  int* later = mem + kInts;                  /* attached between the puts */
  if (strcmp(epoch, "lock") == 0) {
    t = mem + kInts;  /* B before it */
    later = mem;
  } else if (strcmp(epoch, "pscw") == 0) {
    t = mem + 2 * kInts;  /* C; A attached too, B joins them */
  }
  if (rank == 1) {
    if (strcmp(epoch, "pscw") == 0)
      MPI_Win_attach(win, mem, kRegion);
    MPI_Win_attach(win, t, kRegion);
  }
  MPI_Aint at = 0;
  MPI_Get_address(t, &at);
  MPI_Bcast(&at, 1, MPI_AINT, 1, MPI_COMM_WORLD);
#define AT(i) (at + (MPI_Aint)((i) * sizeof(int)))
  int mine[4] = {rank + 1, rank + 1, rank + 1, rank + 1}, token = 0;
  int conflict = strcmp(epoch, "apart") != 0;
  int fence = strcmp(epoch, "fence") == 0 || !conflict;
  int lock = strcmp(epoch, "lock") == 0;
  int pscw = strcmp(epoch, "pscw") == 0;
  if (fence)
    MPI_Win_fence(0, win);
  if (rank == 0) {
    if (lock)
      MPI_Win_lock_all(0, win);
    if (pscw) {
      MPI_Win_start(target_group, 0, win);
      MPI_Recv(&token, 1, MPI_INT, 1, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  /* posted */
    }
    MPI_Put(mine, 2, MPI_INT, 1, AT(0), 2, MPI_INT, win);
    MPI_Send(&token, 1, MPI_INT, 1, 1, MPI_COMM_WORLD);
    if (lock) {
      MPI_Recv(&token, 1, MPI_INT, 2, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);  /* rank 2 put too */
      MPI_Win_unlock_all(win);
    }
    if (pscw)
      MPI_Win_complete(win);
  } else if (rank == 1) {
    if (pscw) {
      MPI_Win_post(origins, 0, win);
      MPI_Send(&token, 1, MPI_INT, 0, 9, MPI_COMM_WORLD);
    }
    MPI_Recv(&token, 1, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Win_attach(win, later, kRegion);  /* a replay moves t here */
    MPI_Send(&token, 1, MPI_INT, 2, 2, MPI_COMM_WORLD);
    if (pscw)
      MPI_Win_wait(win);
  } else if (rank == 2) {
    if (lock)
      MPI_Win_lock_all(0, win);
    if (pscw)
      MPI_Win_start(target_group, 0, win);
    MPI_Recv(&token, 1, MPI_INT, 1, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (conflict)
      MPI_Put(mine, 2, MPI_INT, 1, AT(1), 2, MPI_INT, win);   /* T[1,3): T[1] is rank 0's too */
    else
      MPI_Put(mine, 4, MPI_INT, 1, AT(2), 4, MPI_INT, win);   /* T[2,6): across the seam, apart */
    if (lock) {
      MPI_Send(&token, 1, MPI_INT, 0, 3, MPI_COMM_WORLD);
      MPI_Win_unlock_all(win);
    }
    if (pscw)
      MPI_Win_complete(win);
  }
  if (fence)
    MPI_Win_fence(0, win);
  if (rank == 1 && !conflict) {
    const int expected[6] = {1, 1, 3, 3, 3, 3};
    for (int i = 0; i < 6; ++i)
      CHECK(t[i] == expected[i], "%s: element %d = %d, not %d", epoch, i, t[i], expected[i]);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1) {
    MPI_Win_detach(win, t);
    MPI_Win_detach(win, later);
    if (pscw)
      MPI_Win_detach(win, mem);
  }
  MPI_Win_free(&win);
  free(mem);
#undef AT
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int size;
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 3, "3 ranks, not %d", size);
  MPI_Group world, origins, target;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int one = 1, others[2] = {0, 2};
  MPI_Group_incl(world, 2, others, &origins);
  MPI_Group_incl(world, 1, &one, &target);
  const char* epochs[] = {"fence", "lock", "pscw", "apart"};
  for (int i = 0; i < 4; ++i)
    phase(epochs[i], origins, target);
  MPI_Group_free(&origins);
  MPI_Group_free(&target);
  MPI_Group_free(&world);
  finish("rma_attach_moves");
  MPI_Finalize();
  return 0;
}
