/* Busy-waiting on memory (issue 4). Run with --privatize=off so that the
 * globals are shared by the ranks. Modes (argv[1]):
 *   write       rank 0 polls flags[4] (watched) until rank 1 sets it after sleep(20)
 *   recv        rank 0 polls flags[4]; rank 1 waits in MPI_Recv from rank 0: deadlock
 *   spin        rank 0 spins on an unwatched variable: the watchdog ends the run
 *   prewritten  flags[4] is set before rank 0 polls (with memory watching off)
 *   stack       rank 0 polls a watched variable on its own stack, set by rank 1
 *   spin_rank1  rank 1 spins (in its private copy of the program when privatized) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

volatile int flags[8];
volatile int never;
volatile int *volatile shared_pointer;

static void spin_forever(void)
{
  while (!never)
    ;
}

int main(int argc, char **argv)
{
  const char *mode = argc > 1 ? argv[1] : "write";
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int watched = progsim_watch_memory(flags, sizeof flags, "flags");
    printf("rank 0: progsim_watch_memory returned %d\n", watched);
  }
  if (!strcmp(mode, "prewritten") && rank == 1)
    flags[4] = 222;
  if (!strcmp(mode, "stack")) {
    volatile int local = 0;
    if (rank == 0) {
      progsim_watch_memory(&local, sizeof local, "rank 0's local");
      shared_pointer = &local;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0) {
      while (local != 7)
        ;
      printf("rank 0: local=%d at %.4f\n", local, MPI_Wtime());
      progsim_unwatch_memory(&local);
    } else if (rank == 1) {
      sleep(5);
      *shared_pointer = 7;
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Finalize();
    return 0;
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (!strcmp(mode, "spin_rank1")) {
    if (rank == 1)
      spin_forever();
    sleep(1000);  /* not blocked in MPI: ending the run must not depend on freezing a blocked call */
  }
  if (rank == 0) {
    if (!strcmp(mode, "spin"))
      spin_forever();
    while (flags[4] != 222)
      ;
    printf("rank 0: flags[4]=%d at %.4f\n", flags[4], MPI_Wtime());
  } else if (rank == 1) {
    if (!strcmp(mode, "write")) {
      sleep(20);
      flags[4] = 222;
      printf("rank 1: wrote flags[4] at %.4f\n", MPI_Wtime());
    } else if (!strcmp(mode, "recv") || !strcmp(mode, "spin")) {
      int x;
      MPI_Recv(&x, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    progsim_unwatch_memory(flags);
  MPI_Finalize();
  return 0;
}
