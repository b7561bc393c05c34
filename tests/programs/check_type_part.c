/* Type matching of partitioned communication (MPI-4.1 §4.2.2, §3.3.1).
 * Rank 0 sends 4 partitions of 2 MPI_INT with MPI_Psend_init; rank 1
 * receives them as 2 partitions of 4 elements with MPI_Precv_init (the
 * partition counts may differ). "bad": it receives MPI_FLOAT (same size,
 * other type). "good": MPI_INT. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, data[8] = {0};
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  if (rank == 0) {
    for (int i = 0; i < 8; ++i)
      data[i] = i;
    MPI_Psend_init(data, 4, 2, MPI_INT, 1, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    MPI_Start(&request);
    for (int p = 0; p < 4; ++p)
      MPI_Pready(p, request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Precv_init(data, 2, 4, bad ? MPI_FLOAT : MPI_INT, 0, 5, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  if (rank < 2)
    MPI_Request_free(&request);
  printf("rank %d: %d\n", rank, data[7]);
  MPI_Finalize();
  return 0;
}
