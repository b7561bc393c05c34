/* Rank 0 Bsends 8 MiB and calls MPI_Finalize at once, without detaching the
 * buffer; rank 1 computes 2 s before it receives. MPI_Finalize must execute
 * the pending decoupled activities (MPI-4.1 §2.9, §11.2.2: it completes the
 * buffered send), so every policy completes. */
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
  char* data = calloc(N, 1);
  if (rank == 0) {
    int size = N + MPI_BSEND_OVERHEAD;
    MPI_Buffer_attach(malloc(size), size);
    MPI_Bsend(data, N, MPI_CHAR, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    sleep(2);
    MPI_Recv(data, N, MPI_CHAR, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 1: received at %.3f\n", MPI_Wtime());
  }
  MPI_Finalize();
  free(data);
  return 0;
}
