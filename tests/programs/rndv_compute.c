/* A 16 MiB rendezvous while one side computes (sleeps) 5 s.
 *   argv[1] == "receiver-computes" (default): rank 1 posts MPI_Irecv, sleeps
 *     5 s, then waits; rank 0 MPI_Isend + MPI_Wait at once.
 *   argv[1] == "sender-computes": rank 0 MPI_Isend, sleeps 5 s, then waits;
 *     rank 1 MPI_Irecv + MPI_Wait at once.
 * Each rank prints when its MPI_Wait returned. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N (16 * 1024 * 1024)

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int sender_computes = argc > 1 && strcmp(argv[1], "sender-computes") == 0;
  int* data = malloc(N);
  MPI_Request request;
  if (rank == 0) {
    for (int i = 0; i < N / 4; i++)
      data[i] = i;
    MPI_Isend(data, N / 4, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
    if (sender_computes)
      sleep(5);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("rank 0: send wait returned at %.6f\n", MPI_Wtime());
  } else if (rank == 1) {
    MPI_Irecv(data, N / 4, MPI_INT, 0, 7, MPI_COMM_WORLD, &request);
    if (!sender_computes)
      sleep(5);
    MPI_Status status;
    MPI_Wait(&request, &status);
    int count;
    MPI_Get_count(&status, MPI_INT, &count);
    printf("rank 1: receive wait returned at %.6f, count %d, last %d\n", MPI_Wtime(), count, data[N / 4 - 1]);
  }
  free(data);
  MPI_Finalize();
  return 0;
}
