/* MPICH 4.0.2's rma/reqops, "Wait inside of an epoch": under
 * MPI_Win_lock_all, every rank MPI_Rputs to the same location of rank 0
 * and waits for its request. Concurrent puts to one location: correct MPI
 * since MPI-3, whose result is undefined (MPI-4.1 §12.7), not an error.
 * "same": every rank puts to element 0 of rank 0's window.
 * "own": rank r puts to element r (the twin whose result is defined). */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, nproc, buf[8] = {-1, -1, -1, -1, -1, -1, -1, -1}, value;
  MPI_Win win;
  MPI_Request req;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &nproc);
  const char* mode = argc > 1 ? argv[1] : "own";
  int disp = strcmp(mode, "same") == 0 ? 0 : rank;
  value = rank;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(0, win);
  MPI_Rput(&value, 1, MPI_INT, 0, disp, 1, MPI_INT, win, &req);
  MPI_Wait(&req, MPI_STATUS_IGNORE);
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    int ok = 1;
    for (int r = 0; r < nproc && strcmp(mode, "own") == 0; ++r)
      ok = ok && buf[r] == r;
    if (strcmp(mode, "same") == 0)  /* some rank's value: which one is undefined */
      ok = buf[0] >= 0 && buf[0] < nproc;
    printf("rank 0: %s, %s\n", mode, ok ? "ok" : "wrong");
  }
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
