/* Rank 1 puts into a cell of rank 0's window while rank 0, between the same
 * two MPI_Win_fence calls, stores into that cell itself: correct MPI since
 * MPI-3, but the standard does not define which value the cell ends up with
 * (MPI-4.1 §12.7, rule 1). progsim completes the run, warns with the put's
 * and the store's lines, and lists them in the report's "undefined";
 * progsim check names the class "undefined outcome". */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  int rank, value = 101;
  int* cell;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_allocate(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &cell, &win);
  *cell = -1;
  MPI_Win_fence(0, win);
  if (rank == 1)
    MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win); /* into rank 0's cell */
  if (rank == 0) {
    sleep(1);  /* computing; rank 1's put is on its way or has landed */
    *cell = 7; /* the same cell, in the same epoch */
  }
  MPI_Win_fence(0, win);
  if (rank == 0)
    printf("rank 0: the cell holds %d (101 or 7, or anything: undefined)\n", *cell);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
