/* A type mismatch: rank 0 sends four MPI_FLOAT, rank 1 receives them as
 * MPI_INT. The sizes agree, so most MPI implementations deliver the bytes
 * without a word, and rank 1 reads floats' bit patterns as integers. The
 * standard requires the type signatures to match (MPI-4.1 §3.3.1): the
 * program is erroneous under every MPI, and progsim says so in every run. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) {
    float values[4] = {1.0f, 2.0f, 3.0f, 4.0f};
    MPI_Send(values, 4, MPI_FLOAT, 1, 0, MPI_COMM_WORLD);
  } else if (rank == 1) {
    int values[4];
    MPI_Recv(values, 4, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 1: received %d (the bits of 1.0f)\n", values[0]);
  }
  MPI_Finalize();
  return 0;
}
