/* Causality: whatever a rank's MPI calls cost before it communicates is
 * paid before the message leaves. Rank 0 spends time in many cheap calls
 * (argv[1]: "wtime" = MPI_Wtime, "iprobe" = MPI_Iprobe for a message that
 * is not there, "comm_rank" = MPI_Comm_rank), prints its clock and sends;
 * rank 1 prints when the message arrived, which cannot be earlier.
 * "watched_write" (--privatize=off): rank 1 polls a watched global that
 * rank 0, after the same cheap calls, fills through MPI_Comm_size (a local
 * query): rank 1 cannot wake before rank 0's clock at the call. */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

volatile int watched_size;
volatile double write_time;

static void watched_write(int rank)
{
  if (rank == 1)
    progsim_watch_memory(&watched_size, sizeof watched_size, "watched_size");
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) {
    for (int i = 0; i < 1000; ++i)
      (void)MPI_Wtime();
    write_time = MPI_Wtime();
    printf("before write t=%.9f\n", write_time);
    MPI_Comm_size(MPI_COMM_WORLD, (int*)&watched_size);
  } else if (rank == 1) {
    while (watched_size == 0)
      ;
    double woke = MPI_Wtime();
    printf("woke t=%.9f %s\n", woke, woke >= write_time ? "after the write" : "BEFORE THE WRITE");
    progsim_unwatch_memory(&watched_size);
  }
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* kind = argc > 1 ? argv[1] : "wtime";
  if (strcmp(kind, "watched_write") == 0) {
    watched_write(rank);
    MPI_Finalize();
    return 0;
  }
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
