/* Busy-waiting on a heap MPI_Win_create buffer (1 KiB, too large for
 * window-watch=auto to watch from the start, so it is watched lazily): rank
 * 0 fills its window with a plain loop (no trap: not watched yet), then
 * spins on element 100 until rank 1 sets it with lock/put/unlock after 3 s.
 * The spin arms the lazy watches (memory-watch-arm), the next load traps and
 * rank 0 blocks as a poller: ~3 s of polling time. Under weak progress the
 * lock grant is a decoupled activity of rank 0, which never calls MPI while
 * it spins: deadlock naming the polled window and offset. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define N 256

int main(int argc, char** argv)
{
  int rank, tag = 101;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  volatile int* flags = malloc(N * sizeof(int));
  for (int i = 0; i < N; ++i)
    flags[i] = i;
  MPI_Win_create((void*)flags, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    for (int k = 0; k < 1000; ++k)
      for (int i = 0; i < N; ++i)
        flags[i] = flags[i] + (i == 100 ? 0 : 1);
    while (flags[100] != tag)
      ;
    printf("rank 0: flag=%d at %.6f, flags[1]=%d\n", flags[100], MPI_Wtime(), flags[1]);
  } else if (rank == 1) {
    sleep(3);
    MPI_Win_lock(MPI_LOCK_EXCLUSIVE, 0, 0, win);
    MPI_Put(&tag, 1, MPI_INT, 0, 100, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
    printf("rank 1: unlocked at %.6f\n", MPI_Wtime());
  }
  MPI_Win_free(&win);
  free((void*)flags);
  MPI_Finalize();
  return 0;
}
