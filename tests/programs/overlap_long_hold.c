/* One receive held across thousands of MPI calls (the overlap meter's
 * reproduction, tests/programs/overlap.cmake): rank 1 posts an MPI_Irecv,
 * then makes argv[1] rounds of 1 us of computation and an MPI_Iprobe, then
 * waits; rank 0 sends after the same rounds. The receive's hidden time is
 * the rounds' computation, argv[1] x 1 us: the meter must measure it on
 * every interval since the receive started, however many calls came
 * between. */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, rounds = argc > 1 ? atoi(argv[1]) : 10, flag, buf = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int peer = 1 - rank;
  MPI_Request r;
  if (rank == 1)
    MPI_Irecv(&buf, 1, MPI_INT, peer, 7, MPI_COMM_WORLD, &r);
  for (int i = 0; i < rounds; i++) {
    progsim_compute(1e-6);
    MPI_Iprobe(peer, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
  }
  if (rank == 1)
    MPI_Wait(&r, MPI_STATUS_IGNORE);
  else
    MPI_Send(&buf, 1, MPI_INT, peer, 7, MPI_COMM_WORLD);
  MPI_Finalize();
  return 0;
}
