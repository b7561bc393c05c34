/* progsim check's benchmark program (bench/check.sh): rank 0 gathers one
 * value from each other rank with MPI_ANY_SOURCE, sums them and sends the
 * sum back to each; then the same with MPI_Irecv and MPI_Waitany. Correct
 * whatever the order: every order is explored (N-1 wildcard receives and
 * N-1 MPI_Waitany calls). */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  int rank, size, sum = 0, value;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    for (int i = 1; i < size; ++i) {
      MPI_Recv(&value, 1, MPI_INT, MPI_ANY_SOURCE, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      sum += value;
    }
    MPI_Request* r = malloc(sizeof(MPI_Request) * (size_t)size);
    int* values = malloc(sizeof(int) * (size_t)size);
    for (int i = 1; i < size; ++i)
      MPI_Irecv(&values[i], 1, MPI_INT, i, 1, MPI_COMM_WORLD, &r[i - 1]);
    for (int i = 1; i < size; ++i) {
      int index;
      MPI_Waitany(size - 1, r, &index, MPI_STATUS_IGNORE);
      sum += values[index + 1];
    }
    for (int i = 1; i < size; ++i)
      MPI_Send(&sum, 1, MPI_INT, i, 2, MPI_COMM_WORLD);
    printf("sum %d\n", sum);
    free(r);
    free(values);
  } else {
    MPI_Send(&rank, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
    MPI_Send(&rank, 1, MPI_INT, 0, 1, MPI_COMM_WORLD);
    MPI_Recv(&sum, 1, MPI_INT, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  MPI_Finalize();
  return 0;
}
