/* The PSCW examples of the MPI RMA progress section (mpi-progress file 002):
 *   fig32        post, start, put, complete, wait on both ranks: completes
 *   start_first  start, post, put, complete, wait on both ranks: deadlocks
 *                when MPI_Win_start blocks until the matching post, completes
 *                when it does not (an implementation freedom)
 *   fig33        rank 0: start, put, recv, complete; rank 1: post, wait, send:
 *                deadlocks under every MPI (wait needs the complete, which
 *                comes after the recv, which needs the send after the wait)
 *   fig34        rank 0: start, put (1 MiB), complete, send; rank 1: post,
 *                recv, wait: completes: rank 1 blocked in MPI_Recv must
 *                progress the put (MPI-4.1 §12.7.3 rationale) */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BIG (1024 * 1024)

int main(int argc, char** argv)
{
  const char* figure = argc > 1 ? argv[1] : "fig32";
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int other = 1 - rank;
  int n = strcmp(figure, "fig34") == 0 ? BIG / (int)sizeof(int) : 4;
  int* window = calloc((size_t)n, sizeof(int));
  int* data = malloc((size_t)n * sizeof(int));
  for (int i = 0; i < n; ++i)
    data[i] = 1000 * (rank + 1) + i;
  MPI_Win win;
  MPI_Win_create(window, (MPI_Aint)n * (MPI_Aint)sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Group world, peer;
  MPI_Comm_group(MPI_COMM_WORLD, &world);
  MPI_Group_incl(world, 1, &other, &peer);
  int token = 7;
  if (strcmp(figure, "fig32") == 0 || strcmp(figure, "start_first") == 0) {
    if (strcmp(figure, "fig32") == 0) {
      MPI_Win_post(peer, 0, win);
      MPI_Win_start(peer, 0, win);
    } else {
      MPI_Win_start(peer, 0, win);
      MPI_Win_post(peer, 0, win);
    }
    MPI_Put(data, n, MPI_INT, other, 0, n, MPI_INT, win);
    MPI_Win_complete(win);
    MPI_Win_wait(win);
  } else if (strcmp(figure, "fig33") == 0) {
    if (rank == 0) {
      MPI_Win_start(peer, 0, win);
      MPI_Put(data, n, MPI_INT, 1, 0, n, MPI_INT, win);
      MPI_Recv(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Win_complete(win);
    } else {
      MPI_Win_post(peer, 0, win);
      MPI_Win_wait(win);
      MPI_Send(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    }
  } else if (strcmp(figure, "fig34") == 0) {
    if (rank == 0) {
      MPI_Win_start(peer, 0, win);
      MPI_Put(data, n, MPI_INT, 1, 0, n, MPI_INT, win);
      MPI_Win_complete(win);
      MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else {
      MPI_Win_post(peer, 0, win);
      MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Win_wait(win);
    }
  }
  /* Who received a put checks it: in fig33/fig34 only rank 1. */
  int receives = strcmp(figure, "fig32") == 0 || strcmp(figure, "start_first") == 0 || rank == 1;
  if (receives) {
    int bad = 0;
    for (int i = 0; i < n; ++i)
      bad += window[i] != 1000 * (other + 1) + i;
    printf("rank %d: %s: %d of %d values wrong at %.6f\n", rank, figure, bad, n, MPI_Wtime());
  }
  MPI_Group_free(&peer);
  MPI_Group_free(&world);
  MPI_Win_free(&win);
  free(data);
  free(window);
  MPI_Finalize();
  return 0;
}
