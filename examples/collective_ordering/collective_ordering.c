/* Rank 0 broadcasts 4 MiB, then sends a small message to rank 1; rank 1
 * first receives that message, then joins the broadcast. Whether MPI_Bcast
 * returns at the root before the other ranks join is the implementation's
 * choice (MPI-4.1 §6.14 "Correctness": collectives may or may not
 * synchronize), so the program is not portable. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N (4 * 1024 * 1024)

int main(int argc, char** argv)
{
  int rank, token = 7;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  char* data = calloc(N, 1);
  if (rank == 0) {
    MPI_Bcast(data, N, MPI_CHAR, 0, MPI_COMM_WORLD);
    MPI_Send(&token, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
  } else {
    MPI_Recv(&token, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Bcast(data, N, MPI_CHAR, 0, MPI_COMM_WORLD);
  }
  printf("rank %d: done\n", rank);
  free(data);
  MPI_Finalize();
  return 0;
}
