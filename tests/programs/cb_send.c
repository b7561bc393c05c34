/* --check buffers, send side (MPI-4.1 §3.7.2): "the sender should not
 * modify any part of the send buffer after a nonblocking send operation is
 * called, until the send completes". "bad": rank 0 writes an element of its
 * MPI_Isend's buffer before MPI_Wait. "good": it writes it after MPI_Wait;
 * before, it only reads the buffer (allowed since MPI-3) and writes data
 * next to it on the same page (not part of the buffer). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

struct {
  int data[4];
  int other[4];  /* shares the buffer's page */
} s;

int main(int argc, char** argv)
{
  int rank;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  if (rank == 0) {
    for (int i = 0; i < 4; ++i)
      s.data[i] = i + 1;
    MPI_Isend(s.data, 4, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
    s.other[0] = s.data[0] + s.data[3];
    if (bad)
      s.data[2] = 30;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    s.data[2] = 30;
  } else if (rank == 1) {
    MPI_Recv(s.data, 4, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  printf("rank %d: %d %d %d\n", rank, s.data[0], s.data[3], s.other[0]);
  MPI_Finalize();
  return 0;
}
