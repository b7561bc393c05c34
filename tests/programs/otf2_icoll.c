/* Nonblocking collectives for the OTF2 export (issue 19): each rank of 4
 * starts MPI_Ibcast (1000 bytes from rank 1), MPI_Iallreduce (10 doubles)
 * and MPI_Igather (8 ints to rank 0), and completes them with MPI_Wait, an
 * MPI_Test loop and MPI_Waitall. */
#include "check.h"

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  char bytes[1000] = {0};
  double in[10], out[10];
  int mine[8], all[4 * 8];
  for (int i = 0; i < 10; ++i)
    in[i] = rank;
  for (int i = 0; i < 8; ++i)
    mine[i] = rank * 8 + i;
  if (rank == 1)
    bytes[999] = 7;
  MPI_Request r[3];
  MPI_Ibcast(bytes, 1000, MPI_CHAR, 1, MPI_COMM_WORLD, &r[0]);
  MPI_Wait(&r[0], MPI_STATUS_IGNORE);
  CHECK(bytes[999] == 7, "ibcast %d", bytes[999]);
  MPI_Iallreduce(in, out, 10, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD, &r[1]);
  int flag = 0;
  while (!flag)
    MPI_Test(&r[1], &flag, MPI_STATUS_IGNORE);
  CHECK(out[9] == size * (size - 1) / 2, "iallreduce %g", out[9]);
  MPI_Igather(mine, 8, MPI_INT, all, 8, MPI_INT, 0, MPI_COMM_WORLD, &r[2]);
  MPI_Request pair[2] = {r[2], MPI_REQUEST_NULL};
  MPI_Waitall(2, pair, MPI_STATUSES_IGNORE);
  if (rank == 0)
    CHECK(all[size * 8 - 1] == size * 8 - 1, "igather %d", all[size * 8 - 1]);
  finish("otf2_icoll");
  MPI_Finalize();
  return 0;
}
