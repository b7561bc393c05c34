/* Accumulates against the target's own atomic update (MPI-4.1 §12.7: the
 * exception of rule 2 is for two accumulates; a local atomic instruction is
 * a load and store of the location like any other). Rank 1
 * MPI_Accumulate(MPI_SUM)s element 0 of rank 0's window in a fence epoch;
 * rank 0 adds to it in the same epoch:
 *   atomic: with a C atomic read-modify-write (undefined);
 *   mpi:    with MPI_Accumulate(MPI_SUM) on its own window (defined). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  int rank, one = 1;
  int* cell;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "mpi";
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cell, &win);
  *cell = 0;
  MPI_Win_fence(0, win);
  if (rank == 1)
    MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
  if (rank == 0) {
    sleep(1); /* rank 1's accumulate is issued by then */
    if (strcmp(mode, "atomic") == 0)
      __atomic_fetch_add(cell, 1, __ATOMIC_SEQ_CST);
    else
      MPI_Accumulate(&one, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
  }
  MPI_Win_fence(0, win);
  if (rank == 0)
    printf("rank 0: %s, cell %d\n", mode, *cell);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
