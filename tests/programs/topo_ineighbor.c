/* Nonblocking neighborhood collectives (MPI-4.1 §8.7) on a 4 x 3 periodic
 * grid of 12 ranks: MPI_Ineighbor_allgather, allgatherv, alltoall, alltoallv
 * and alltoallw outstanding at the same time on one communicator, completed
 * by one MPI_Waitall, with the data checked; then a 1 MiB
 * MPI_Ineighbor_alltoall (rendezvous messages) overlapped with 1 s of
 * computation: rank 0 prints how long its MPI_Wait took, which depends on
 * the progress policy (the rendezvous steps run during the computation only
 * when something other than the rank progresses them). */
#include "check.h"

#include <stdlib.h>
#include <unistd.h>

#define BIG (1 << 18) /* ints per block: 1 MiB */

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 12, "needs 12 ranks, has %d", size);
  int dims[2] = {4, 3}, periods[2] = {1, 1}, nbr[4];
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_shift(cart, 0, 1, &nbr[0], &nbr[1]);
  MPI_Cart_shift(cart, 1, 1, &nbr[2], &nbr[3]);

  MPI_Request reqs[5];
  int ag[4], agv[8], a2a_out[4], a2a_in[4], v_out[4], v_in[4], w_out[4], w_in[4];
  int ones[4] = {1, 1, 1, 1}, twos[4] = {2, 2, 2, 2}, displs[4] = {0, 2, 4, 6}, blocks[4] = {0, 1, 2, 3};
  MPI_Aint wd[4] = {0, 4, 8, 12};
  MPI_Datatype ints[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
  int pair[2] = {rank, -rank};
  for (int k = 0; k < 4; ++k) {
    a2a_out[k] = 100 * rank + k;
    v_out[k] = 200 * rank + k;
    w_out[k] = 300 * rank + k;
  }
  MPI_Ineighbor_allgather(&rank, 1, MPI_INT, ag, 1, MPI_INT, cart, &reqs[0]);
  MPI_Ineighbor_allgatherv(pair, 2, MPI_INT, agv, twos, displs, MPI_INT, cart, &reqs[1]);
  MPI_Ineighbor_alltoall(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, cart, &reqs[2]);
  MPI_Ineighbor_alltoallv(v_out, ones, blocks, MPI_INT, v_in, ones, blocks, MPI_INT, cart, &reqs[3]);
  MPI_Ineighbor_alltoallw(w_out, ones, wd, ints, w_in, ones, wd, ints, cart, &reqs[4]);
  MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE);
  for (int k = 0; k < 4; ++k) {
    CHECK(ag[k] == nbr[k], "allgather block %d: %d", k, ag[k]);
    CHECK(agv[2 * k] == nbr[k] && agv[2 * k + 1] == -nbr[k], "allgatherv block %d: %d %d", k, agv[2 * k],
          agv[2 * k + 1]);
    CHECK(a2a_in[k] == 100 * nbr[k] + (k ^ 1), "alltoall block %d: %d", k, a2a_in[k]);
    CHECK(v_in[k] == 200 * nbr[k] + (k ^ 1), "alltoallv block %d: %d", k, v_in[k]);
    CHECK(w_in[k] == 300 * nbr[k] + (k ^ 1), "alltoallw block %d: %d", k, w_in[k]);
  }

  int* big_out = malloc(4 * BIG * sizeof(int));
  int* big_in = malloc(4 * BIG * sizeof(int));
  for (int i = 0; i < 4 * BIG; ++i)
    big_out[i] = rank * 4 + i / BIG;
  MPI_Request r;
  MPI_Barrier(cart);
  MPI_Ineighbor_alltoall(big_out, BIG, MPI_INT, big_in, BIG, MPI_INT, cart, &r);
  sleep(1);
  double t0 = MPI_Wtime();
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  double waited = MPI_Wtime() - t0;
  for (int k = 0; k < 4; ++k)
    CHECK(big_in[k * BIG] == nbr[k] * 4 + (k ^ 1) && big_in[k * BIG + BIG - 1] == nbr[k] * 4 + (k ^ 1),
          "1 MiB block %d: %d", k, big_in[k * BIG]);
  if (rank == 0)
    printf("rank 0: MPI_Wait after the computation took %.0f us\n", waited * 1e6);
  free(big_out);
  free(big_in);
  MPI_Comm_free(&cart);
  finish("topo_ineighbor");
  MPI_Finalize();
  return 0;
}
