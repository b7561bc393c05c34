/* A message never received before MPI_Finalize (MPI-4.1 §11.2.2, Example
 * 11.4). "bad": rank 0's eager MPI_Send to rank 1 completes at once, rank 1
 * never receives it. "good": rank 1 receives it. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, value = 42;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  if (rank == 0)
    MPI_Send(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD);
  if (rank == 1 && !bad)
    MPI_Recv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}
