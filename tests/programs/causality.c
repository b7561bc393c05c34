/* Causality: whatever a rank's MPI calls cost before it communicates is
 * paid before the message leaves. Rank 0 spends time in many cheap calls
 * (argv[1]: "wtime" = MPI_Wtime, "iprobe" = MPI_Iprobe for a message that
 * is not there, "comm_rank" = MPI_Comm_rank), prints its clock and sends;
 * rank 1 prints when the message arrived, which cannot be earlier. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* kind = argc > 1 ? argv[1] : "wtime";
  int value = 42;
  if (rank == 0) {
    for (int i = 0; i < 1000; ++i) {
      if (strcmp(kind, "iprobe") == 0) {
        int flag;
        MPI_Iprobe(1, 99, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      } else if (strcmp(kind, "comm_rank") == 0) {
        int r;
        MPI_Comm_rank(MPI_COMM_WORLD, &r);
      } else {
        (void)MPI_Wtime();
      }
    }
    double before = MPI_Wtime();
    printf("before send t=%.9f\n", before);
    MPI_Send(&value, 1, MPI_INT, 1, 0, MPI_COMM_WORLD);
    MPI_Send(&before, 1, MPI_DOUBLE, 1, 1, MPI_COMM_WORLD);
  } else if (rank == 1) {
    double before;
    MPI_Recv(&value, 1, MPI_INT, 0, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    double done = MPI_Wtime();
    MPI_Recv(&before, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    printf("recv done t=%.9f %s\n", done, done >= before ? "after the send" : "BEFORE THE SEND");
  }
  MPI_Finalize();
  return 0;
}
