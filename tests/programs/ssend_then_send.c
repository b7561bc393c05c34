/* Rank 0: MPI_Ssend(a) then MPI_Send(b); rank 1: MPI_Irecv(a), MPI_Recv(b),
 * MPI_Wait. Completes under every policy: rank 1 blocked in MPI_Recv(b)
 * progresses the pending receive of a (MPI-4.1 §3.7.4). 1 MiB each, so
 * both go through the rendezvous. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (1024 * 1024)

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* a = malloc(N);
  char* b = malloc(N);
  if (rank == 0) {
    for (int i = 0; i < N; i++) {
      a[i] = 'a';
      b[i] = 'b';
    }
    MPI_Ssend(a, N, MPI_CHAR, 1, 1, MPI_COMM_WORLD);
    MPI_Send(b, N, MPI_CHAR, 1, 2, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Request request;
    MPI_Irecv(a, N, MPI_CHAR, 0, 1, MPI_COMM_WORLD, &request);
    MPI_Recv(b, N, MPI_CHAR, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("rank 1: a=%c b=%c at %.6f\n", a[N - 1], b[N - 1], MPI_Wtime());
  }
  free(a);
  free(b);
  MPI_Finalize();
  return 0;
}
