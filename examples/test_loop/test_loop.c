/* Rank 0 starts a 1 MiB rendezvous send and polls it with MPI_Test, with
 * 1 ms of sleep between tests; rank 1 posts the receive at once but then
 * computes (sleeps) 1 s before waiting. Under weak progress the RTS waits
 * for rank 1 to enter MPI (about 1000 false tests); with NIC offload the
 * handshake proceeds without rank 1 (a couple of false tests). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (1024 * 1024)

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* data = calloc(N, 1);
  MPI_Request request;
  if (rank == 0) {
    MPI_Isend(data, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD, &request);
    int flag = 0, false_tests = 0;
    for (;;) {
      MPI_Test(&request, &flag, MPI_STATUS_IGNORE);
      if (flag)
        break;
      false_tests++;
      usleep(1000);
    }
    printf("rank 0: send complete at %.6f after %d false tests\n", MPI_Wtime(), false_tests);
  } else if (rank == 1) {
    MPI_Irecv(data, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, &request);
    sleep(1);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  free(data);
  MPI_Finalize();
  return 0;
}
