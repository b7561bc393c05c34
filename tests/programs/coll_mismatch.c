/* A collective mismatch: rank 0 calls MPI_Bcast (root 0) while rank 1 calls
 * MPI_Barrier on the same communicator. With a small message rank 0's
 * broadcast completes (eager) and rank 1 waits forever; with "large" (1 MiB,
 * rendezvous) both block. Either way the run ends as a deadlock, and the
 * mismatch is reported naming both calls. */
#include <mpi.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int count = argc > 1 && strcmp(argv[1], "large") == 0 ? 1 << 18 : 1;
  int* buf = calloc((size_t)count, sizeof(int));
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0)
    MPI_Bcast(buf, count, MPI_INT, 0, MPI_COMM_WORLD);
  else
    MPI_Barrier(MPI_COMM_WORLD);
  free(buf);
  MPI_Finalize();
  return 0;
}
