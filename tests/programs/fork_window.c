/* A forked child writes watched memory (robust-threads): rank 1 polls its
 * part of a shared window (watched memory) until rank 0 puts 1 there; rank
 * 0 first forks a child that writes 5 to rank 1's part (the window's
 * memory is shared, as with MPI_Win_allocate_shared in an MPI job) and
 * exits with the value it reads back. The child's write must not trap into
 * the simulator, whose copy in the child would run rank 1 on. */
#include <mpi.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

int main(int argc, char **argv)
{
  int rank, *base, *peer, one = 1, disp;
  MPI_Aint size;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Win_allocate_shared(sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &base, &win);
  MPI_Win_shared_query(win, 1, &size, &disp, &peer);
  *base = 0;
  MPI_Win_lock_all(0, win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    usleep(1000);
    pid_t pid = fork();
    if (pid == 0) {
      *(volatile int *)peer = 5;
      _exit(*(volatile int *)peer);
    }
    int status = 0;
    waitpid(pid, &status, 0);
    printf("rank 0: the child exited with status %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    fflush(stdout);
    MPI_Put(&one, 1, MPI_INT, 1, 0, 1, MPI_INT, win);
    MPI_Win_flush(1, win);
  } else {
    while (*(volatile int *)base == 0)
      ;
    printf("rank 1 saw %d\n", *base);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
