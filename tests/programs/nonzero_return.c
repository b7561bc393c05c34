/* Ranks that finalize and then return non-zero (a program's failed
 * self-check): the run is completed, and progsim exits with the status of
 * the lowest such rank, as mpirun does. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Finalize();
  if (rank == 2)
    exit(3);
  return rank == 1 ? 260 : 0; /* 260 & 0xff = 4: a status, as the shell sees it */
}
