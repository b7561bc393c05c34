/* Both ranks receive first, then send: a cycle of blocked non-local calls
 * that no MPI implementation can complete (MPI-4.1 §3.4). */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, in = 0, out = 1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = 1 - rank;
  MPI_Recv(&in, 1, MPI_INT, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  MPI_Send(&out, 1, MPI_INT, peer, 0, MPI_COMM_WORLD);
  printf("rank %d: received %d\n", rank, in);
  MPI_Finalize();
  return 0;
}
