/* Scale benchmark program: the smallest complete MPI program that every rank
 * runs through the runtime's start-up, a collective and shutdown.
 * Built unchanged with progsim-cc and with SMPI's smpicc (bench/hello_scale.sh).
 * Each rank prints one line "hello rank R of N on HOST"; the benchmark sends it
 * to /dev/null when measuring and uses it to check rank placement. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, size, len;
  char host[MPI_MAX_PROCESSOR_NAME];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(host, &len);
  printf("hello rank %d of %d on %s\n", rank, size, host);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
