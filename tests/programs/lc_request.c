/* A request never completed before MPI_Finalize (MPI-4.1 §11.2.2: a process
 * "must locally complete all MPI operations that it initiated"). "bad":
 * rank 0's MPI_Isend is received by rank 1, but rank 0 never waits for it,
 * and rank 1's MPI_Irecv of a message never sent stays pending. "good":
 * rank 0 waits, rank 1 cancels its receive and waits. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  int rank, value = 42, other = 0;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  if (rank == 0) {
    MPI_Isend(&value, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!bad)
      MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(&value, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Irecv(&other, 1, MPI_INT, 0, 8, MPI_COMM_WORLD, &request);
    MPI_Barrier(MPI_COMM_WORLD);
    if (!bad) {
      MPI_Cancel(&request);
      MPI_Wait(&request, MPI_STATUS_IGNORE);
    }
  }
  printf("rank %d: done\n", rank);
  MPI_Finalize();
  return 0;
}
