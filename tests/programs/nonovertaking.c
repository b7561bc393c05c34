/* Non-overtaking (MPI-4.1 §3.5): 40 messages of alternating sizes (60 KiB
 * and 8 bytes, all eager) from rank 0 to rank 1 with the same tag must be
 * received in send order, although the small ones are faster on the wire. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define BIG (60 * 1024 / 4)

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int* buf = calloc(BIG, sizeof(int));
  if (rank == 0) {
    for (int i = 0; i < 40; i++) {
      buf[0] = i;
      MPI_Send(buf, i % 2 == 0 ? BIG : 2, MPI_INT, 1, 5, MPI_COMM_WORLD);
    }
  } else if (rank == 1) {
    int in_order = 1;
    for (int i = 0; i < 40; i++) {
      MPI_Status status;
      MPI_Recv(buf, BIG, MPI_INT, 0, MPI_ANY_TAG, MPI_COMM_WORLD, &status);
      int count;
      MPI_Get_count(&status, MPI_INT, &count);
      if (buf[0] != i || count != (i % 2 == 0 ? BIG : 2))
        in_order = 0;
    }
    printf("received in send order: %s\n", in_order ? "yes" : "NO");
  }
  free(buf);
  MPI_Finalize();
  return 0;
}
