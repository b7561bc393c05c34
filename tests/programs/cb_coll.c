/* --check buffers for nonblocking and persistent collectives (MPI-4.1
 * §6.12: "all associated send buffers ... should not be modified, and all
 * associated receive buffers should not be accessed, until the collective
 * operation completes"; §6.13). argv[1] picks the collective, argv[2] is
 * "bad" (one access the rule forbids) or "good" (its twin: a read of a
 * send buffer, an access next to a buffer on the same page or in a gap
 * between the blocks of a v collective, an access between two rounds of a
 * persistent collective).
 *   bcast      root 0 writes its MPI_Ibcast buffer (good: reads it)
 *   allreduce  rank 1 reads its MPI_Iallreduce(MPI_IN_PLACE) buffer (good:
 *              the data next to it)
 *   gatherv    root 0 writes an element of a block of its MPI_Igatherv
 *              receive buffer (good: an element of a gap)
 *   persistent rank 0 writes the send buffer of its MPI_Allreduce_init in
 *              the second round, after MPI_Start (good: before it)
 *   neighbor   rank 1 reads its MPI_Ineighbor_alltoall receive buffer
 *              (good: the data next to it) */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

struct {
  int data[8];
  int other[4]; /* shares the buffers' page */
} s;
int result[4];

int main(int argc, char** argv)
{
  int rank;
  MPI_Request request;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const char* mode = argc > 1 ? argv[1] : "";
  int bad = argc > 2 && strcmp(argv[2], "bad") == 0;
  if (strcmp(mode, "bcast") == 0) {
    for (int i = 0; i < 4; ++i)
      s.data[i] = rank == 0 ? i + 1 : 0;
    MPI_Ibcast(s.data, 4, MPI_INT, 0, MPI_COMM_WORLD, &request);
    if (rank == 0) {
      s.other[0] = s.data[0] + s.data[3];
      if (bad)
        s.data[2] = 30;
    }
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("rank %d: %d %d\n", rank, s.data[0], s.data[3]);
  } else if (strcmp(mode, "allreduce") == 0) {
    for (int i = 0; i < 4; ++i)
      s.data[i] = rank + i;
    s.other[1] = 5;
    MPI_Iallreduce(MPI_IN_PLACE, s.data, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &request);
    if (rank == 1)
      s.other[0] = bad ? s.data[1] : s.other[1];
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("rank %d: %d %d\n", rank, s.data[0], s.data[3]);
  } else if (strcmp(mode, "gatherv") == 0) {
    /* Rank r's two ints land at displacement 4 * r: ints 2-3 and 6-7 are gaps. */
    int counts[2] = {2, 2}, displs[2] = {0, 4};
    int mine[2] = {rank * 10 + 1, rank * 10 + 2};
    MPI_Igatherv(mine, 2, MPI_INT, s.data, counts, displs, MPI_INT, 0, MPI_COMM_WORLD, &request);
    if (rank == 0)
      s.data[bad ? 5 : 6] = 99;
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    if (rank == 0)
      printf("rank 0: %d %d %d %d\n", s.data[0], s.data[1], s.data[4], s.data[6]);
  } else if (strcmp(mode, "neighbor") == 0) {
    /* A periodic ring of the ranks: one int to and from each neighbour. */
    int dims = 0, periods = 1, mine[2] = {rank, rank + 10};
    MPI_Comm ring;
    MPI_Dims_create(2, 1, &dims);
    MPI_Cart_create(MPI_COMM_WORLD, 1, &dims, &periods, 0, &ring);
    s.other[1] = 5;
    MPI_Ineighbor_alltoall(mine, 1, MPI_INT, s.data, 1, MPI_INT, ring, &request);
    s.other[0] = bad && rank == 1 ? s.data[1] : s.other[1];
    MPI_Wait(&request, MPI_STATUS_IGNORE);
    printf("rank %d: %d %d\n", rank, s.data[0], s.data[1]);
    MPI_Comm_free(&ring);
  } else if (strcmp(mode, "persistent") == 0) {
    MPI_Allreduce_init(s.data, result, 4, MPI_INT, MPI_SUM, MPI_COMM_WORLD, MPI_INFO_NULL, &request);
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < 4; ++i)
        s.data[i] = rank + round;
      if (rank == 0 && round == 1 && !bad)
        s.data[3] = 7;
      MPI_Start(&request);
      if (rank == 0 && round == 1 && bad)
        s.data[3] = 7;
      MPI_Wait(&request, MPI_STATUS_IGNORE);
      printf("rank %d: round %d %d\n", rank, round, result[0]);
    }
    MPI_Request_free(&request);
  }
  MPI_Finalize();
  return 0;
}
