/* Rank 1 calls MPI_Reduce (root 0, one int) and rank 0 never does: the
 * collective is entered by one member only, which is erroneous (MPI-4.1
 * §6.14: all members of the communicator must call it). The reduction's
 * only message is eager, so rank 1 completes, and both ranks finalize:
 * nothing deadlocks, the error is still pending at MPI_Finalize. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, value = 1, sum = 0;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 1)
    MPI_Reduce(&value, &sum, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}
