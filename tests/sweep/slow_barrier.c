/* A barrier after about a third of a second of host computation (user code
 * costs no simulated time, but it does cost host time): the sweep tests
 * interrupt a sweep of these while a point is running. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  volatile double x = 0;
  for (long i = 0; i < 150000000L; ++i)
    x += 1e-9;
  MPI_Barrier(MPI_COMM_WORLD);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0)
    printf("done %s\n", x > 0 ? "yes" : "no");
  MPI_Finalize();
  return 0;
}
