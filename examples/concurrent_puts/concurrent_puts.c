/* Two origins put to one location of rank 0 in one fence epoch: correct MPI
 * since MPI-3, but the standard does not define which value rank 0 ends up
 * with (MPI-4.1 §12.7). progsim completes the run, warns, and lists the two
 * calls in the report's "undefined"; progsim check names the class
 * "undefined outcome". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, cell = -1, value;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  value = 100 + rank;
  MPI_Win_create(&cell, sizeof cell, sizeof cell, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  if (rank > 0)
    MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* ranks 1 and 2: the same cell */
  MPI_Win_fence(0, win);
  if (rank == 0)
    printf("rank 0: the cell holds %d (101 or 102, or anything: undefined)\n", cell);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
