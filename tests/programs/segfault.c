/* Rank 3 dereferences a null pointer after MPI_Barrier; with the argument
 * "in_mpi" it passes MPI_Send an invalid (non-null) buffer instead, so that
 * the fault happens inside the library. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  printf("rank %d before the crash\n", rank);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 3 && argc > 1 && strcmp(argv[1], "in_mpi") == 0)
    MPI_Send((const void*)64, 4, MPI_INT, 0, 0, MPI_COMM_WORLD); /* line 16 */
  if (rank == 3) {
    volatile int* p = NULL;
    *p = 42; /* line 19 */
  }
  MPI_Finalize();
  return 0;
}
