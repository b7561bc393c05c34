/* Rank 3 dereferences a null pointer after MPI_Barrier. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d before the crash\n", rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 3) {
    volatile int* p = NULL;
    *p = 42;
  }
  MPI_Finalize();
  return 0;
}
