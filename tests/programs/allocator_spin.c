/* Rank 0 computes with the allocator without end, beside a heap window
 * (watched lazily): most of its CPU time is inside malloc and free. The
 * watchdog's ticks first arm the lazy watch (a diversion into the simulator
 * that returns), then end the run as stuck (a diversion that writes the
 * report). Neither may land midway through malloc or free
 * (sim/memory/AllocatorCalls.hpp): the heap would be left half updated while
 * the simulator allocates. Rank 1 waits in the closing fence. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* memory = malloc(1 << 16);
  MPI_Win win;
  MPI_Win_create(memory, 1 << 16, 1, MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  if (rank == 0) {
    void* kept[64] = {0};
    for (unsigned long i = 0;; ++i) {
      /* Sizes from 16 B to 290 KiB: the small-bin and the mmap paths. */
      size_t bytes = 16 + (i * 7919) % 300000;
      free(kept[i % 64]);
      kept[i % 64] = i % 3 ? malloc(bytes) : calloc(1, bytes);
      if (kept[i % 64])
        memset(kept[i % 64], (int)i, 16);
    }
  }
  MPI_Win_fence(0, win);
  MPI_Win_free(&win);
  free(memory);
  MPI_Finalize();
  return 0;
}
