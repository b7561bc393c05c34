/* A neighborhood collective that one process never joins: on a periodic
 * ring of 4, rank 3 waits for a message from rank 0 instead of calling
 * MPI_Neighbor_alltoall; ranks 0 and 2 (its neighbours) wait in the
 * collective for rank 3's blocks. The run must end as a deadlock naming
 * the collective. With the argument "persistent", every process makes an
 * MPI_Neighbor_alltoall_init request and all but rank 3 start it and wait
 * in MPI_Wait. */
#include <mpi.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int dims[1] = {4}, periods[1] = {1};
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  int out[2] = {rank, rank}, in[2];
  int persistent = argc > 1 && strcmp(argv[1], "persistent") == 0;
  MPI_Request req = MPI_REQUEST_NULL;
  if (persistent)
    MPI_Neighbor_alltoall_init(out, 1, MPI_INT, in, 1, MPI_INT, ring, MPI_INFO_NULL, &req);
  if (rank == 3) {
    MPI_Recv(in, 1, MPI_INT, 0, 99, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (persistent) {
    MPI_Start(&req);
    MPI_Wait(&req, MPI_STATUS_IGNORE);
  } else {
    MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, ring);
  }
  if (persistent)
    MPI_Request_free(&req);
  MPI_Comm_free(&ring);
  MPI_Finalize();
  return 0;
}
