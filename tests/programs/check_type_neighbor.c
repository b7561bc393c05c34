/* Type matching of a neighborhood collective (MPI-4.1 §8.6): on a ring of
 * 3 processes (periodic 1-d Cartesian topology), MPI_Neighbor_alltoall of
 * 2 MPI_INT to each neighbor. "bad": rank 2 receives its blocks as
 * MPI_FLOAT (same size, other type); "good": MPI_INT. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, size, dims[1] = {0}, periods[1] = {1}, send[4], recv[4];
  MPI_Comm ring;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  dims[0] = size;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  for (int i = 0; i < 4; ++i)
    send[i] = 10 * rank + i;
  MPI_Datatype recvtype = bad && rank == 2 ? MPI_FLOAT : MPI_INT;
  MPI_Neighbor_alltoall(send, 2, MPI_INT, recv, 2, recvtype, ring);
  printf("rank %d: %d %d\n", rank, recv[0], recv[2]);
  MPI_Comm_free(&ring);
  MPI_Finalize();
  return 0;
}
