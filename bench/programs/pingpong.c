/* Point-to-point speed benchmark program (bench/pingpong.sh).
 *
 * Ranks work in pairs, rank 2k with rank 2k+1 (a last unpaired rank of an
 * odd-sized job only calls MPI_Init and MPI_Finalize). Each pair does R round
 * trips of one 8-byte message each way with blocking MPI_Send / MPI_Recv:
 * the even rank sends then receives, the odd rank receives then sends, so
 * the job moves 2 * R * pairs messages.
 *
 * Usage: pingpong R        (R round trips per pair, default 1000)
 *
 * Prints nothing but one line on rank 0: its simulated time (MPI_Wtime, in
 * seconds) when its last round trip completed. Built unchanged with
 * progsim-cc and with SMPI's smpicc. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  int rank, size;
  long rounds = 1000;
  double buf[1] = {0.0}; /* 8 bytes */

  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (argc > 1) {
    char* end = NULL;
    rounds = strtol(argv[1], &end, 10);
    if (*argv[1] == '\0' || *end != '\0' || rounds < 0) {
      if (rank == 0)
        fprintf(stderr, "pingpong: round trips '%s' is not a non-negative integer\n", argv[1]);
      MPI_Abort(MPI_COMM_WORLD, 2);
    }
  }

  int peer = rank ^ 1;
  if (peer < size) {
    if (rank % 2 == 0) {
      for (long i = 0; i < rounds; i++) {
        buf[0] += 1.0;
        MPI_Send(buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
        MPI_Recv(buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      }
    } else {
      for (long i = 0; i < rounds; i++) {
        MPI_Recv(buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        buf[0] += 1.0;
        MPI_Send(buf, 1, MPI_DOUBLE, peer, 0, MPI_COMM_WORLD);
      }
    }
  }
  double end_time = MPI_Wtime();

  if (rank == 0) {
    /* The value came back 2 * rounds times incremented: checks the payload. */
    if (peer < size && buf[0] != 2.0 * (double)rounds) {
      fprintf(stderr, "pingpong: rank 0 got %.0f back, expected %.0f\n", buf[0], 2.0 * (double)rounds);
      MPI_Abort(MPI_COMM_WORLD, 3);
    }
    printf("%.9f\n", end_time);
  }
  MPI_Finalize();
  return 0;
}
