/* Rank 2 calls exit(0) without MPI_Finalize; the others finalize. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 2)
    exit(0);
  MPI_Finalize();
  return 0;
}
