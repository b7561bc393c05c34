/* Conflicting RMA accesses in PSCW and passive-target epochs (MPI-4.1
 * §12.7, rule 2). Ranks 1 and 2 put to rank 0's window.
 *   pscw-bad:  both in access epochs matching one MPI_Win_post, element 0;
 *   pscw-good: the same, rank 1 to element 0, rank 2 to element 1;
 *   pscw-seq:  element 0 both, in two exposure epochs one after the other;
 *   lock-bad:  both under shared locks held at once, element 0;
 *   lock-good: the same, elements 0 and 1;
 *   lock-flush: element 0 both, rank 2 after rank 1's MPI_Win_flush made
 *              its put visible (a message orders them);
 *   lock-excl: element 0 both, under exclusive locks;
 *   lock-acc:  MPI_Accumulate(MPI_SUM) both, element 0, shared locks. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, buf[4] = {0, 0, 0, 0}, value, token = 0;
  MPI_Win win;
  MPI_Group world, origins, target;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "pscw-good";
  value = rank;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  int zero = 0, others[2] = {1, 2};
  MPI_Group_incl(world, 2, others, &origins);
  MPI_Group_incl(world, 1, &zero, &target);
  int disp = strstr(mode, "good") ? rank - 1 : 0;
  if (strncmp(mode, "pscw", 4) == 0) {
    if (strcmp(mode, "pscw-seq") == 0) {
      if (rank == 0) {
        for (int r = 1; r <= 2; ++r) {
          MPI_Group one;
          MPI_Group_incl(world, 1, &r, &one);
          MPI_Win_post(one, 0, win);
          MPI_Win_wait(win);
          MPI_Group_free(&one);
        }
      } else if (rank <= 2) {
        MPI_Win_start(target, 0, win);
        MPI_Put(&value, 1, MPI_INT, 0, disp, 1, MPI_INT, win);
        MPI_Win_complete(win);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    } else {
      if (rank == 0)
        MPI_Win_post(origins, 0, win);
      MPI_Barrier(MPI_COMM_WORLD);
      if (rank == 0) {
        MPI_Win_wait(win);
      } else if (rank <= 2) {
        MPI_Win_start(target, 0, win);
        MPI_Put(&value, 1, MPI_INT, 0, disp, 1, MPI_INT, win);
        MPI_Win_complete(win);
      }
    }
  } else {
    int type = strcmp(mode, "lock-excl") == 0 ? MPI_LOCK_EXCLUSIVE : MPI_LOCK_SHARED;
    if (rank == 1 || rank == 2) {
      if (strcmp(mode, "lock-flush") == 0 && rank == 2)
        MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Win_lock(type, 0, 0, win);
      if (strcmp(mode, "lock-acc") == 0)
        MPI_Accumulate(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
      else
        MPI_Put(&value, 1, MPI_INT, 0, disp, 1, MPI_INT, win);
      if (strcmp(mode, "lock-flush") == 0 && rank == 1) {
        MPI_Win_flush(0, win);
        MPI_Send(&token, 1, MPI_INT, 2, 0, MPI_COMM_WORLD);
      }
      if (strcmp(mode, "lock-bad") == 0 || strcmp(mode, "lock-good") == 0 || strcmp(mode, "lock-acc") == 0)
        MPI_Barrier(MPI_COMM_WORLD);  /* both puts are issued while both locks are held */
      MPI_Win_unlock(0, win);
    } else if (strcmp(mode, "lock-bad") == 0 || strcmp(mode, "lock-good") == 0 || strcmp(mode, "lock-acc") == 0) {
      MPI_Barrier(MPI_COMM_WORLD);
    }
    MPI_Barrier(MPI_COMM_WORLD);
  }
  if (rank == 0)
    printf("rank 0: %s, window %d %d\n", mode, buf[0], buf[1]);
  MPI_Group_free(&world);
  MPI_Group_free(&origins);
  MPI_Group_free(&target);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
