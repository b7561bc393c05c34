/* A message race: rank 0 serves two clients with MPI_ANY_SOURCE and answers
 * the first one it heard from. Client 1 waits for the answer; client 2 does
 * not. Whether this completes depends on which request arrives first, which
 * no MPI implementation promises (MPI-4.1 §3.5: non-overtaking holds between
 * one sender and one receiver only). progsim's run takes rank 1's first and
 * completes under every policy; `progsim check` also runs the other match
 * and finds the deadlock: class "message race". */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, request, answer = 42;
  MPI_Status status;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
    int first = status.MPI_SOURCE;
    MPI_Recv(&request, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, &status);
    MPI_Send(&answer, 1, MPI_INT, first, 0, MPI_COMM_WORLD);
    printf("rank 0: answered rank %d\n", first);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    if (rank == 1)
      MPI_Recv(&answer, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
