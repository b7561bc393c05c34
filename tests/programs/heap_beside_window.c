// A window over heap memory shares its page with the allocator's own data
// (chunk headers, free lists). With the window watched (--cfg
// window-watch=all), every malloc and free beside it faults into progsim.
// A rank that owes CPU time (its inline MPI_Comm_rank calls) used to settle
// that debt in the middle of malloc: the other ranks ran their own malloc
// and free, and the heap was damaged (the tool crashed). Each rank prints
// the sum of what it read back from its allocations and the value its left
// neighbour put.
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int* base = malloc(4 * sizeof(int));
  memset(base, 0, 4 * sizeof(int));
  MPI_Win win;
  MPI_Win_create(base, 4 * sizeof(int), sizeof(int), MPI_INFO_NULL, MPI_COMM_WORLD, &win);
  MPI_Win_fence(0, win);
  volatile double x = 0;
  long sum = 0;
  int rounds = argc > 1 ? atoi(argv[1]) : 300;
  for (int i = 0; i < rounds; ++i) {
    for (int k = 0; k < 500 * (rank + 1); ++k)  // different debts: the ranks interleave
      x += k;
    int me;
    MPI_Comm_rank(MPI_COMM_WORLD, &me);
    char* p = malloc(16 + (size_t)(i % 4) * 16);
    memset(p, i % 7, 16);
    sum += p[3];
    free(p);
  }
  int value = 100 + rank;
  MPI_Put(&value, 1, MPI_INT, (rank + 1) % size, 0, 1, MPI_INT, win);
  MPI_Win_fence(0, win);
  printf("rank %d: sum %ld, put %d\n", rank, sum, base[0]);
  MPI_Win_free(&win);
  free(base);
  MPI_Finalize();
  return 0;
}
