/* Collective speed benchmark: R (argument, default 100) MPI_Allreduce of
 * one double on MPI_COMM_WORLD. Rank 0 prints the simulated time at the end
 * (a single number) and checks the result. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int rounds = argc > 1 ? atoi(argv[1]) : 100;
  double in = rank, out = 0;
  int wrong = 0;
  for (int k = 0; k < rounds; ++k) {
    MPI_Allreduce(&in, &out, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    wrong += out != (double)size * (size - 1) / 2;
  }
  if (rank == 0) {
    if (wrong)
      fprintf(stderr, "allreduce: %d wrong results\n", wrong);
    printf("%.6f\n", MPI_Wtime());
  }
  MPI_Finalize();
  return wrong != 0;
}
