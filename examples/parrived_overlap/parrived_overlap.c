/* Partitioned communication (MPI-4.1 chapter 4): rank 0 marks four 1 MiB
 * partitions ready (MPI_Pready) and then computes 2 s before MPI_Wait; rank 1
 * polls MPI_Parrived, computing 1 ms between polls, and records when each
 * partition arrived. MPI_PARRIVED is a test procedure that must progress,
 * but a 1 MiB partition moves by rendezvous: its data is a decoupled
 * activity of rank 0 (answering the CTS). Under weak progress the
 * partitions arrive when rank 0 is back in MPI (MPI_Wait at 2 s); with a
 * progress thread, NIC offload or the ideal reference, at once. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define PARTS 4
#define COUNT (128 * 1024) /* doubles per partition: 1 MiB */

static double value(int i, int epoch) { return (double)i * 0.5 + epoch; }

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  double* buf = malloc(sizeof(double) * PARTS * COUNT);
  MPI_Request req;
  if (rank == 0) {
    MPI_Psend_init(buf, PARTS, COUNT, MPI_DOUBLE, 1, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    for (int p = 0; p < PARTS; p++) {
      for (int i = p * COUNT; i < (p + 1) * COUNT; i++)
        buf[i] = value(i, 1);
      MPI_Pready(p, req);
    }
    sleep(2); /* computation after the partitions are ready */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    printf("rank 0: send complete at %.4f\n", MPI_Wtime());
  } else if (rank == 1) {
    MPI_Precv_init(buf, PARTS, COUNT, MPI_DOUBLE, 0, 7, MPI_COMM_WORLD, MPI_INFO_NULL, &req);
    MPI_Start(&req);
    int got[PARTS] = {0}, arrived = 0, polls = 0, wrong = 0;
    double at[PARTS];
    while (arrived < PARTS) {
      for (int p = 0; p < PARTS; p++) {
        if (got[p])
          continue;
        int flag = 0;
        MPI_Parrived(req, p, &flag);
        polls++;
        if (flag) {
          got[p] = 1;
          arrived++;
          at[p] = MPI_Wtime();
          for (int i = p * COUNT; i < (p + 1) * COUNT; i++) /* usable before MPI_Wait */
            wrong += buf[i] != value(i, 1);
        }
      }
      if (arrived < PARTS)
        progsim_compute(0.001); /* other work between polls */
    }
    MPI_Status status;
    MPI_Wait(&req, &status);
    int count;
    MPI_Get_count(&status, MPI_DOUBLE, &count);
    for (int p = 0; p < PARTS; p++)
      printf("rank 1: partition %d arrived at %.4f\n", p, at[p]);
    printf("rank 1: all partitions after %d MPI_Parrived calls, count %d, data %s\n", polls, count,
           wrong ? "WRONG" : "correct");
  }
  MPI_Request_free(&req);
  free(buf);
  MPI_Finalize();
  return 0;
}
