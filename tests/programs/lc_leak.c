/* Objects never freed before MPI_Finalize: leaks, a warning (an error with
 * progsim run --strict). "bad": each rank keeps a duplicate of
 * MPI_COMM_WORLD, rank 0 also a committed vector type and a persistent
 * request. "good": all freed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, value = 0;
  MPI_Comm dup;
  MPI_Datatype vector;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  MPI_Comm_dup(MPI_COMM_WORLD, &dup);
  if (rank == 0) {
    MPI_Type_vector(2, 1, 2, MPI_INT, &vector);
    MPI_Type_commit(&vector);
    MPI_Send_init(&value, 1, MPI_INT, MPI_PROC_NULL, 0, dup, &request);
    MPI_Start(&request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  if (!bad) {
    MPI_Comm_free(&dup);
    if (rank == 0) {
      MPI_Type_free(&vector);
      MPI_Request_free(&request);
    }
  }
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}
