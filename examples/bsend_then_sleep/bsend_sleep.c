/* Rank 0 buffers an 8 MiB message (MPI_Bsend), sleeps 10 s, then detaches
 * the buffer. Moving the buffered data out is a decoupled activity of rank 0:
 * under weak progress rank 1's MPI_Recv returns only when rank 0 is back in
 * MPI (MPI_Buffer_detach at 10 s); with a progress thread, NIC offload or the
 * ideal reference it returns within milliseconds. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N (8 * 1024 * 1024)

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* data = malloc(N);
  if (rank == 0) {
    for (int i = 0; i < N; i++)
      data[i] = (char)(i % 251);
    int size = N + MPI_BSEND_OVERHEAD;
    char* buffer = malloc(size);
    MPI_Buffer_attach(buffer, size);
    MPI_Bsend(data, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
    sleep(10);
    void* detached;
    MPI_Buffer_detach(&detached, &size);
    printf("rank 0: detached at %.6f\n", MPI_Wtime());
    free(detached);
  } else if (rank == 1) {
    MPI_Recv(data, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    int ok = 1;
    for (int i = 0; i < N; i++)
      ok = ok && data[i] == (char)(i % 251);
    printf("rank 1: received at %.6f, data %s\n", MPI_Wtime(), ok ? "correct" : "WRONG");
  }
  free(data);
  MPI_Finalize();
  return 0;
}
