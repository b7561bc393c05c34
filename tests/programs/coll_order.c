/* Rank 0 calls MPI_Bcast then MPI_Barrier, rank 1 MPI_Barrier then
 * MPI_Bcast: the members call the collectives in different orders, which is
 * erroneous (MPI-4.1 §6.14, "Correctness"); progsim reports the mismatch
 * naming both calls. What a real MPI does with it depends on an
 * implementation freedom: with a broadcast that does not synchronize (its
 * message is buffered at rank 1) the program completes, with one that waits
 * for rank 1 it deadlocks. "large" broadcasts 1 MiB (a rendezvous). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int count = argc > 1 && strcmp(argv[1], "large") == 0 ? 1 << 18 : 4;
  int* buf = calloc((size_t)count, sizeof(int));
  if (rank == 0)
    for (int i = 0; i < count; ++i)
      buf[i] = i + 1;
  if (rank == 0) {
    MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
    MPI_Barrier(MPI_COMM_WORLD);
  } else {
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
  }
  printf("rank %d: done, buf[%d] = %d\n", rank, count - 1, buf[count - 1]);
  free(buf);
  MPI_Finalize();
  return 0;
}
