/* A run of a few seconds of host time: argv[1] MPI_Allreduce calls of one
 * int (default 100000); rank 0 prints the sum once at the end. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, x = 1, n = argc > 1 ? atoi(argv[1]) : 100000;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n; ++i)
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0)
    printf("done %d\n", x);
  MPI_Finalize();
  return 0;
}
