/* --check buffers for request-based RMA operations (MPI-4.1 §12.3: the
 * origin buffer is not updated, the buffer of a get not accessed, until the
 * operation completes at the origin; §12.3.5: the completion of the
 * request). argv[1] picks the operation, argv[2] is "bad" (one access the
 * rule forbids) or "good" (its twin).
 *   rput  rank 0 writes the origin buffer of its MPI_Rput before MPI_Wait
 *         (good: reads it, writes it after MPI_Wait)
 *   rget  rank 0 reads the origin buffer of its MPI_Rget before MPI_Wait
 *         (good: reads the data next to it on the same page)
 *   put   rank 0 writes the origin buffer of its MPI_Put before the
 *         MPI_Win_flush that completes it (good: after)
 *   rput_flush  rank 0 writes the origin buffer of its MPI_Rput before
 *         MPI_Win_flush (bad) or after it but before MPI_Wait (good: the
 *         flush completed the operation at the origin, MPI-4.1 §12.5.4) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

struct {
  int data[4];
  int other[4]; /* shares the buffer's page */
} s;
int window[4];

int main(int argc, char** argv)
{
  int rank;
  MPI_Win win;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  int bad = argc > 2 && strcmp(argv[2], "bad") == 0;
  for (int i = 0; i < 4; ++i)
    window[i] = 100 * rank + i;
  MPI_Win_create(window, sizeof window, sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_lock_all(0, win);
  if (rank == 0 && strcmp(mode, "rput") == 0) {
    for (int i = 0; i < 4; ++i)
      s.data[i] = i + 1;
    MPI_Rput(s.data, 4, MPI_INT, 1, 0, 4, MPI_INT, win, &request);
    s.other[0] = s.data[0] + s.data[3];
    if (bad)
      s.data[1] = 20;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    s.data[1] = 20;
  } else if (rank == 0 && strcmp(mode, "put") == 0) {
    for (int i = 0; i < 4; ++i)
      s.data[i] = i + 1;
    MPI_Put(s.data, 4, MPI_INT, 1, 0, 4, MPI_INT, win);
    s.other[0] = s.data[0] + s.data[3];
    if (bad)
      s.data[1] = 20;
    MPI_Win_flush(1, win);
    s.data[1] = 20;
  } else if (rank == 0 && strcmp(mode, "rput_flush") == 0) {
    for (int i = 0; i < 4; ++i)
      s.data[i] = i + 1;
    MPI_Rput(s.data, 4, MPI_INT, 1, 0, 4, MPI_INT, win, &request);
    if (bad)
      s.data[1] = 20;
    MPI_Win_flush(1, win);
    s.data[1] = 20;
    s.other[0] = 5;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 0 && strcmp(mode, "rget") == 0) {
    s.other[1] = 5;
    MPI_Rget(s.data, 4, MPI_INT, 1, 0, 4, MPI_INT, win, &request);
    s.other[0] = bad ? s.data[2] : s.other[1];
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  }
  MPI_Win_unlock_all(win);
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d: %d %d %d\n", rank, rank == 0 ? s.data[0] : window[0], rank == 0 ? s.data[3] : window[3],
         s.other[0]);
  MPI_Win_free(&win);
  MPI_Finalize();
  return 0;
}
