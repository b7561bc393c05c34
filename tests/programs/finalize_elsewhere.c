/* A rank blocked in MPI_Recv while the other ranks enter MPI_Finalize and
 * end: their finalization cannot end its wait (only a wait in MPI_Finalize
 * for sends that may still be cancelled, MPI-4.1 §11.2.2, can), so it must
 * not wake it. Rank 0 receives from the last rank, which sleeps 1 s first;
 * the ranks in between finalize at once. Expected: rank 0 blocked once,
 * from its call to the message's arrival. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size, value = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (rank == 0) {
    MPI_Recv(&value, 1, MPI_INT, size - 1, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("rank 0 received %d\n", value);
  } else if (rank == size - 1) {
    sleep(1);
    value = 42;
    MPI_Send(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD);
  }
  MPI_Finalize();
  return 0;
}
