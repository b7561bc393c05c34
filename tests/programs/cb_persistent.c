/* --check buffers on persistent requests (MPI-4.1 §3.9, §3.7.2) and
 * non-contiguous buffers. Rank 0 sends column 1 of a 4x4 matrix on its stack
 * twice with MPI_Send_init/MPI_Start; rank 1 receives it with
 * MPI_Recv_init. "bad": rank 0 writes an element of the column while the
 * second send is pending. "good": between the sends (the request is
 * inactive) and while the second is pending it writes only elements of the
 * other columns (inside the buffer's span, outside its type map). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, m[4][4], column[4];
  MPI_Datatype col;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  MPI_Type_vector(4, 1, 4, MPI_INT, &col);
  MPI_Type_commit(&col);
  if (rank == 0) {
    for (int i = 0; i < 16; ++i)
      m[i / 4][i % 4] = i;
    MPI_Send_init(&m[0][1], 1, col, 1, 7, MPI_COMM_WORLD, &request);
    for (int round = 0; round < 2; ++round) {
      MPI_Start(&request);
      m[2][2] = 100 + round;
      if (bad && round == 1)
        m[2][1] = 100;
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      m[3][1] += 10;
    }
  } else if (rank == 1) {
    MPI_Recv_init(column, 4, MPI_INT, 0, 7, MPI_COMM_WORLD, &request);
    for (int round = 0; round < 2; ++round) {
      MPI_Start(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      printf("rank 1: %d %d %d %d\n", column[0], column[1], column[2], column[3]);
    }
  }
  MPI_Request_free(&request);
  MPI_Type_free(&col);
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}
