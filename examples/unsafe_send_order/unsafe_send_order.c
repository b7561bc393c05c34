/* Both ranks MPI_Send 4 MiB to each other, then receive: unsafe (MPI-4.1
 * §3.5 Example 3.9). Deadlocks unless the library buffers 4 MiB eagerly. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (4 * 1024 * 1024)

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* out = calloc(N, 1);
  char* in = calloc(N, 1);
  int peer = 1 - rank;
  MPI_Send(out, N, MPI_CHAR, peer, 0, MPI_COMM_WORLD);
  MPI_Recv(in, N, MPI_CHAR, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  printf("rank %d done at %.6f\n", rank, MPI_Wtime());
  free(out);
  free(in);
  MPI_Finalize();
  return 0;
}
