/* PSCW (general active target synchronization, MPI-4.1 §12.5.2) with
 * MPI_Win_start before MPI_Win_post on both ranks: each rank opens an access
 * epoch to the other before exposing its own window. Whether MPI_Win_start
 * may wait for the matching post is left to the implementation: with a
 * blocking start both ranks wait for a post the other never reaches
 * (deadlock); with a non-blocking start (MPICH) the put waits instead and
 * the program completes. Run it with --cfg win-start-blocks=yes|no. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank, window = -1;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int other = 1 - rank;
  MPI_Win win;
  MPI_Win_create(&window, sizeof window, sizeof window, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, peer;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &other, &peer);
  MPI_Win_start(peer, 0, win); /* Figure 32 has MPI_Win_post first */
  MPI_Win_post(peer, 0, win);
  MPI_Put(&rank, 1, MPI_INT, other, 0, 1, MPI_INT, win);
  MPI_Win_complete(win);
  MPI_Win_wait(win);
  printf("rank %d: window=%d\n", rank, window);
  MPI_Group_free(&peer);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
