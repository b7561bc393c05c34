/* RMA synchronization errors (MPI-4.1 §12.5); the window's error handler is
 * MPI_ERRORS_RETURN, so the run goes on.
 * "bad": rank 1 puts to rank 0 before any epoch is open.
 * "good": the same put between two fences.
 * "bad-mix": rank 1 puts in a fence epoch, then locks rank 0 before the
 *   fence that closes it (distinct access epochs must be disjoint).
 * "good-mix": the fence closes the epoch before the lock. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, buf[4] = {0, 0, 0, 0}, value = 7;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "good";
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_set_errhandler(win, MPI_ERRORS_RETURN);
  int err = MPI_SUCCESS;
  if (strcmp(mode, "bad") == 0) {
    if (rank == 1)
      err = MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
    MPI_Win_fence(0, win);
  } else if (strcmp(mode, "good") == 0) {
    MPI_Win_fence(0, win);
    if (rank == 1)
      err = MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    MPI_Win_fence(0, win);
  } else {
    int mix = strcmp(mode, "bad-mix") == 0;
    MPI_Win_fence(0, win);
    if (rank == 1)
      MPI_Put(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, win);
    if (rank == 1 && mix) {
      err = MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      if (err == MPI_SUCCESS)
        MPI_Win_unlock(0, win);
    }
    MPI_Win_fence(MPI_MODE_NOSUCCEED, win);
    if (rank == 1 && !mix) {
      MPI_Win_lock(MPI_LOCK_SHARED, 0, 0, win);
      MPI_Put(&value, 1, MPI_INT, 0, 1, 1, MPI_INT, win);
      MPI_Win_unlock(0, win);
    }
  }
  printf("rank %d: %s, %s\n", rank, mode, err == MPI_SUCCESS ? "no error" : "MPI_ERR_RMA_SYNC returned");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
