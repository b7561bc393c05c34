/* Conflicting RMA accesses in one fence epoch (MPI-4.1 §12.7, rule 2).
 * "bad": ranks 1 and 2 both MPI_Put to element 0 of rank 0's window.
 * "good": rank 1 puts to element 0, rank 2 to element 1.
 * "acc": both MPI_Accumulate(MPI_SUM) on element 0: concurrent accumulates
 *   with the same predefined datatype are allowed. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, buf[4] = {0, 0, 0, 0}, value;
  MPI_Win win;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "good";
  value = rank;
  MPI_Win_create(buf, sizeof buf, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  if (strcmp(mode, "acc") == 0) {
    if (rank > 0)
      MPI_Accumulate(&value, 1, MPI_INT, 0, 0, 1, MPI_INT, MPI_SUM, win);
  } else if (rank > 0) {
    int disp = strcmp(mode, "bad") == 0 ? 0 : rank - 1;
    MPI_Put(&value, 1, MPI_INT, 0, disp, 1, MPI_INT, win);
  }
  MPI_Win_fence(0, win);
  if (rank == 0)
    printf("rank 0: %s, window %d %d\n", mode, buf[0], buf[1]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
