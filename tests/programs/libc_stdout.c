/* Each rank's stdout is its own stream: a line a rank writes in parts,
 * with MPI calls between them, stays one line of that rank. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d: part one,", rank);
  MPI_Barrier(MPI_COMM_WORLD);
  printf(" part two,");
  int sum = 0;
  MPI_Allreduce(&rank, &sum, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  printf(" part three (sum %d)\n", sum);
  MPI_Finalize();
  return 0;
}
