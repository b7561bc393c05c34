/* Type matching of point-to-point messages (MPI-4.1 §3.3.1): the sequence
 * of basic types a send names must be a prefix of the receive's.
 *
 * "bad": rank 0 sends 4 MPI_FLOAT that rank 1 receives as 4 MPI_INT (an
 * eager message), and rank 1 sends 32768 MPI_INT (128 KiB, a rendezvous)
 * that rank 0 receives as MPI_UNSIGNED: two type mismatches, one per pair
 * of ranks, each naming both calls. The data arrives anyway (the sizes
 * agree): the run completes, erroneous.
 * "good": the same messages with matching types, and what type matching
 * allows: a shorter message, a derived type with the same signature, a
 * fixed-width type naming the same C type (MPI_INT32_T for MPI_INT),
 * MPI_BYTE and MPI_PACKED on one side, a probe then a receive. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LARGE 32768

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int bad = argc > 1 && strcmp(argv[1], "bad") == 0;
  MPI_Datatype small_recv = bad ? MPI_INT : MPI_FLOAT;
  MPI_Datatype large_recv = bad ? MPI_UNSIGNED : MPI_INT;
  float f[4] = {1, 2, 3, 4};
  int* big = calloc(LARGE, sizeof(int));
  if (rank == 0) {
    MPI_Send(f, 4, MPI_FLOAT, 1, 7, MPI_COMM_WORLD);
    MPI_Recv(big, LARGE, large_recv, 1, 8, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  } else if (rank == 1) {
    MPI_Recv(f, 4, small_recv, 0, 7, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    MPI_Send(big, LARGE, MPI_INT, 0, 8, MPI_COMM_WORLD);
  }

  if (!bad) {  /* what type matching allows */
    int v[8] = {0};
    MPI_Datatype pair;
    MPI_Type_contiguous(2, MPI_INT, &pair);
    MPI_Type_commit(&pair);
    char packed[64];
    int position = 0;
    if (rank == 0) {
      MPI_Send(v, 3, MPI_INT, 1, 1, MPI_COMM_WORLD);        /* shorter than the receive */
      MPI_Send(v, 4, MPI_INT, 1, 2, MPI_COMM_WORLD);        /* received as 2 pairs */
      MPI_Send(v, 4, MPI_INT32_T, 1, 3, MPI_COMM_WORLD);    /* int32_t is int */
      MPI_Send(v, 4, MPI_INT, 1, 4, MPI_COMM_WORLD);        /* received as bytes */
      MPI_Pack(f, 2, MPI_FLOAT, packed, sizeof packed, &position, MPI_COMM_WORLD);
      MPI_Send(packed, position, MPI_PACKED, 1, 5, MPI_COMM_WORLD);  /* received as floats */
      MPI_Send(v, 2, MPI_DOUBLE, 1, 6, MPI_COMM_WORLD);     /* received as MPI_PACKED */
      MPI_Send(f, 4, MPI_FLOAT, 1, 9, MPI_COMM_WORLD);      /* probed first */
    } else if (rank == 1) {
      MPI_Recv(v, 8, MPI_INT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(v, 2, pair, 0, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(v, 4, MPI_INT, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(v, 16, MPI_BYTE, 0, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(f, 2, MPI_FLOAT, 0, 5, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Recv(packed, sizeof packed, MPI_PACKED, 0, 6, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
      MPI_Status st;
      MPI_Probe(0, 9, MPI_COMM_WORLD, &st);
      MPI_Recv(f, 4, MPI_FLOAT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Type_free(&pair);
  }
  printf("rank %d: done\n", rank);
  free(big);
  MPI_Finalize();
  return 0;
}
