/* Rank 0's MPI_Issend is never received nor cancelled: an incorrect
 * program. Rank 1's MPI_Finalize waits while rank 0 may still cancel it
 * (MPI-4.1 §11.2.2 advice), rank 0 waits for the receive: a deadlock. */
#include <mpi.h>

int main(int argc, char** argv)
{
  int rank, value = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Request request;
    MPI_Issend(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
