/* A target's own loads and stores against another process's RMA operation
 * on the same bytes of its window (MPI-4.1 §12.7, rule 1; §12.3). Rank 1
 * puts (or gets) element 0 of rank 0's window; rank 0 touches its window:
 *   fence-store:  stores element 0 between the two fences (undefined);
 *   fence-other:  stores element 1 between them (disjoint bytes: defined);
 *   fence-after:  stores element 0 after the completing fence (defined);
 *   fence-load:   loads element 0 before the completing fence (undefined);
 *   fence-load-after: loads it after that fence (defined);
 *   fence-get:    rank 1 gets element 0, rank 0 loads it (two reads: defined);
 *   lock-store:   rank 1 locks rank 0's window, puts, enters a barrier and
 *                 unlocks 2 s after it; rank 0 stores element 0 after
 *                 that barrier (undefined: the put is not complete);
 *   lock-barrier: rank 0 stores after a second barrier that follows the
 *                 unlock (defined);
 *   lock-self:    rank 0 stores under an exclusive lock of its own window
 *                 (granted after rank 1's unlock: defined);
 *   pscw-store:   rank 0 posts, stores element 0, then waits (undefined);
 *   pscw-after:   rank 0 stores after MPI_Win_wait (defined). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  int rank, value = 7, got = 0;
  volatile int* cell;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "fence-after";
  MPI_Win_allocate(4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, (void*)&cell, &win);
  cell[0] = cell[1] = 0;
  MPI_Barrier(MPI_COMM_WORLD);
  if (strncmp(mode, "fence", 5) == 0) {
    int get = strcmp(mode, "fence-get") == 0;
    MPI_Win_fence(0, win);
    if (rank == 1 && get)
      MPI_Get(&got, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    else if (rank == 1)
      MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    if (rank == 0) {
      sleep(1); /* rank 1's operation is issued by then */
      if (strcmp(mode, "fence-store") == 0)
        cell[0] = 5;
      else if (strcmp(mode, "fence-other") == 0)
        cell[1] = 5;
      else if (strcmp(mode, "fence-load") == 0 || get)
        got = cell[0];
    }
    MPI_Win_fence(0, win);
    if (rank == 0 && strcmp(mode, "fence-after") == 0)
      cell[0] = 5;
    if (rank == 0 && strcmp(mode, "fence-load-after") == 0)
      got = cell[0];
  } else if (strncmp(mode, "lock", 4) == 0) {
    if (rank == 1) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
      MPI_Barrier(MPI_COMM_WORLD); /* the lock is held: the put is not complete */
      sleep(2);
      MPI_Win_unlock(0, win);
    } else if (rank == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
      if (strcmp(mode, "lock-store") == 0)
        cell[0] = 5;
      if (strcmp(mode, "lock-self") == 0) {
        MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
        cell[0] = 5;
        MPI_Win_unlock(0, win);
      }
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0 && strcmp(mode, "lock-barrier") == 0)
      cell[0] = 5;
  } else {
    MPI_Group world, one;
    MPI_Comm_group(MPI_COMM_WORLD, &world);
    int peer = 1 - rank;
    MPI_Group_incl(world, 1, &peer, &one);
    if (rank == 0)
      MPI_Win_post(one, 0, win);
    MPI_Barrier(MPI_COMM_WORLD); /* the post is made before rank 1's put */
    if (rank == 1) {
      MPI_Win_start(one, 0, win);
      MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
      MPI_Win_complete(win);
    } else if (rank == 0) {
      sleep(1);
      if (strcmp(mode, "pscw-store") == 0)
        cell[0] = 5;
      MPI_Win_wait(win);
      if (strcmp(mode, "pscw-after") == 0)
        cell[0] = 5;
    }
    MPI_Group_free(&one);
    MPI_Group_free(&world);
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    printf("rank 0: %s, done\n", mode);
  MPI_Win_free(&win);
  MPI_Finalize();
  return got == -1;
}
