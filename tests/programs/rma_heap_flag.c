/* Busy-waiting on a heap MPI_Win_create buffer (1 KiB, too large for
 * window-watch=auto to watch from the start, so it is watched lazily): rank
 * 0 fills its window with a plain loop (no trap: not watched yet), then
 * spins on element 100 until rank 1 sets it with lock/put/unlock after 3 s.
 * The spin arms the lazy watches (memory-watch-arm), the next load traps and
 * rank 0 blocks as a poller: ~3 s of polling time. Under weak progress the
 * lock grant is a decoupled activity of rank 0, which never calls MPI while
 * it spins: deadlock naming the polled window and offset. With the
 * argument "dynamic" the buffer is attached to a dynamic window instead. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
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
  int dynamic = argc > 1 && strcmp(argv[1], "dynamic") == 0;
  MPI_Aint target = 100; /* element 100: a displacement, or an address */
  if (dynamic) {
    MPI_Win_create_dynamic(MPI_INFO_NULL, MPI_COMM_WORLD, &win);
    MPI_Win_attach(win, (void*)flags, N * sizeof(int));
    MPI_Get_address((void*)&flags[100], &target);
    MPI_Bcast(&target, 1, MPI_AINT, 0, MPI_COMM_WORLD);
  } else {
    MPI_Win_create((void*)flags, N * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  }
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
    MPI_Put(&tag, 1, MPI_INT, 0, target, 1, MPI_INT, win);
    MPI_Win_unlock(0, win);
    printf("rank 1: unlocked at %.6f\n", MPI_Wtime());
  }
  if (dynamic)
    MPI_Win_detach(win, (void*)flags);
  MPI_Win_free(&win);
  free((void*)flags);
  MPI_Finalize();
  return 0;
}
