/* Rank 0 calls abort() (SIGABRT) in user code. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    abort();
  MPI_Finalize();
  return 0;
}
