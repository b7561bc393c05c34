/* --check buffers, receive side (MPI-4.1 §3.7.2): "the receiver should not
 * access any part of the receive buffer after a nonblocking receive
 * operation is called, until the receive completes". "bad": rank 1 reads
 * its MPI_Irecv's buffer before MPI_Wait. "good": it reads it after
 * MPI_Wait; before, it only writes data next to it on the same page. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

struct {
  double data[8];
  double other[8];  /* shares the buffer's page */
} s;

int main(int argc, char** argv)
{
  int rank;
  double seen = 0;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  if (rank == 0) {
    for (int i = 0; i < 8; ++i)
      s.data[i] = i + 0.5;
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Send(s.data, 8, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD);
  } else if (rank == 1) {
    MPI_Irecv(s.data, 8, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, &request);
    s.other[3] = 1.0;
    if (bad)
      seen = s.data[5];
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    seen += s.data[5];
  }
  printf("rank %d: %g %g\n", rank, seen, s.other[3]);
  MPI_Finalize();
  return 0;
}
