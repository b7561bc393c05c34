/* MPI-3.1 Example 8.9 (MPI-4.1 Example 11.6), as quoted by the MPI Forum's
 * semantic-terms slides: rank 0 starts a synchronous send that rank 1 never
 * receives, cancels it and waits; rank 1 only calls MPI_Finalize. "The
 * program is correct": the cancel succeeds and MPI_Wait returns, whatever
 * rank 1 does (MPI-4.1 §3.8.4). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    int value = 42, flag = 0;
    MPI_Request request;
    MPI_Status status;
    MPI_Issend(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, &request);
    MPI_Cancel(&request);
    MPI_Wait(&request, &status);
    MPI_Test_cancelled(&status, &flag);
    printf("rank 0: MPI_Wait returned at %.6f s, cancelled=%d\n", MPI_Wtime(), flag);
  }
  MPI_Finalize();
  return 0;
}
