/* Each rank increments a global and a static: privatized ranks see 1,
 * with --privatize=off every rank sees the number of ranks. */
#include <mpi.h>
#include <stdio.h>

int counter = 0;

static int bump(void)
{
  static int calls = 0;
  return ++calls;
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  counter++;
  int calls = bump();
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: counter=%d calls=%d\n", rank, counter, calls);
  MPI_Finalize();
  return 0;
}
