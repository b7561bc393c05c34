/* Every rank computes 1 s of CPU (progsim_compute) and prints how long it
 * took in simulated time. With a progress thread per rank and as many ranks
 * as cores on a host, the threads' polling takes a share of the cores. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double t0 = MPI_Wtime();
  progsim_compute(1.0);
  double t1 = MPI_Wtime();
  printf("rank %d: 1 s of computation took %.6f s\n", rank, t1 - t0);
  MPI_Finalize();
  return 0;
}
