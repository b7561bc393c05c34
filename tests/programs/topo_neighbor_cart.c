/* Neighborhood collectives on Cartesian grids of 12 ranks (MPI-4.1 §8.6):
 * per dimension d the neighbours are MPI_Cart_shift(d, 1)'s source then
 * destination. Grids: 4 x 3 periodic, 4 x 3 periodic in dimension 0 only
 * (MPI_PROC_NULL neighbours leave their receive block untouched), 6 x 2
 * periodic (both neighbours in dimension 1 are the same process) and 12 x 1
 * periodic (a process is its own neighbour twice). In the last two the block
 * received from "below" must be the one the peer sent "up", not the first
 * block it sent to that process.
 * Each rank checks MPI_Neighbor_allgather, allgatherv, alltoall, alltoallv
 * and alltoallw (mixed int and double blocks) against the values its
 * neighbours computed. */
#include "check.h"

#include <string.h>

#define SENTINEL (-7)

static int nbr[4];  /* sources = destinations: -d0, +d0, -d1, +d1 */

static void neighbors(MPI_Comm cart)
{
  MPI_Cart_shift(cart, 0, 1, &nbr[0], &nbr[1]);
  MPI_Cart_shift(cart, 1, 1, &nbr[2], &nbr[3]);
}

/* The block a neighbour sends in direction k (0: down d0, 1: up d0, 2: down
 * d1, 3: up d1) arrives at the receiver's block k ^ 1. */
static int alltoall_value(int sender, int block) { return 1000 * sender + block; }

static void exercise(int rank, int d0, int d1, int p0, int p1)
{
  int dims[2] = {d0, d1}, periods[2] = {p0, p1};
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  neighbors(cart);
  char grid[64];
  snprintf(grid, sizeof grid, "%dx%d periods %d%d", d0, d1, p0, p1);

  /* allgather: two ints per process */
  int mine[2] = {rank, 100 + rank}, got[8];
  for (int i = 0; i < 8; ++i)
    got[i] = SENTINEL;
  MPI_Neighbor_allgather(mine, 2, MPI_INT, got, 2, MPI_INT, cart);
  for (int k = 0; k < 4; ++k) {
    int want0 = nbr[k] == MPI_PROC_NULL ? SENTINEL : nbr[k];
    int want1 = nbr[k] == MPI_PROC_NULL ? SENTINEL : 100 + nbr[k];
    CHECK(got[2 * k] == want0 && got[2 * k + 1] == want1, "%s allgather block %d: %d %d", grid, k, got[2 * k],
          got[2 * k + 1]);
  }

  /* allgatherv: two values from each neighbour, at displacements 4k (the
   * gaps keep the sentinel) */
  int counts[4] = {2, 2, 2, 2}, displs[4] = {0, 4, 8, 12}, gv[16];
  int send_v[2] = {rank, rank};
  for (int i = 0; i < 16; ++i)
    gv[i] = SENTINEL;
  MPI_Neighbor_allgatherv(send_v, 2, MPI_INT, gv, counts, displs, MPI_INT, cart);
  for (int k = 0; k < 4; ++k) {
    int want = nbr[k] == MPI_PROC_NULL ? SENTINEL : nbr[k];
    CHECK(gv[4 * k] == want && gv[4 * k + 1] == want && gv[4 * k + 2] == SENTINEL, "%s allgatherv block %d: %d %d %d",
          grid, k, gv[4 * k], gv[4 * k + 1], gv[4 * k + 2]);
  }

  /* alltoall: block k sent in direction k */
  int out[4], in[4];
  for (int k = 0; k < 4; ++k) {
    out[k] = alltoall_value(rank, k);
    in[k] = SENTINEL;
  }
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, cart);
  for (int k = 0; k < 4; ++k) {
    int want = nbr[k] == MPI_PROC_NULL ? SENTINEL : alltoall_value(nbr[k], k ^ 1);
    CHECK(in[k] == want, "%s alltoall block %d from %d: %d, expected %d", grid, k, nbr[k], in[k], want);
  }

  /* alltoallv: direction k carries k+1 values; reversed layout on receive */
  int vout[10], vin[10], scounts[4], sdispls[4], rcounts[4], rdispls[4];
  for (int k = 0, at = 0; k < 4; ++k) {
    scounts[k] = k + 1;
    sdispls[k] = at;
    for (int j = 0; j <= k; ++j)
      vout[at + j] = alltoall_value(rank, k) * 10 + j;
    at += k + 1;
  }
  /* receive block k comes from direction k ^ 1, so it has (k ^ 1) + 1 values */
  for (int k = 3, at = 0; k >= 0; --k) {
    rcounts[k] = (k ^ 1) + 1;
    rdispls[k] = at;
    at += rcounts[k];
  }
  for (int i = 0; i < 10; ++i)
    vin[i] = SENTINEL;
  MPI_Neighbor_alltoallv(vout, scounts, sdispls, MPI_INT, vin, rcounts, rdispls, MPI_INT, cart);
  for (int k = 0; k < 4; ++k)
    for (int j = 0; j < rcounts[k]; ++j) {
      int want = nbr[k] == MPI_PROC_NULL ? SENTINEL : alltoall_value(nbr[k], k ^ 1) * 10 + j;
      CHECK(vin[rdispls[k] + j] == want, "%s alltoallv block %d[%d]: %d, expected %d", grid, k, j,
            vin[rdispls[k] + j], want);
    }

  /* alltoallw: even directions carry an int, odd ones a double */
  struct {
    int i[2];
    double d[2];
  } wout, win;
  wout.i[0] = alltoall_value(rank, 0);
  wout.i[1] = alltoall_value(rank, 2);
  wout.d[0] = alltoall_value(rank, 1) + 0.5;
  wout.d[1] = alltoall_value(rank, 3) + 0.5;
  win.i[0] = win.i[1] = SENTINEL;
  win.d[0] = win.d[1] = SENTINEL;
  int ones[4] = {1, 1, 1, 1};
  /* send direction k: k even -> int i[k/2], k odd -> double d[k/2]; receive
   * block k comes from direction k ^ 1: k even -> double, k odd -> int */
  MPI_Aint wsd[4] = {0, 8, 4, 16}, wrd[4] = {8, 0, 16, 4};
  MPI_Datatype st[4] = {MPI_INT, MPI_DOUBLE, MPI_INT, MPI_DOUBLE};
  MPI_Datatype rt[4] = {MPI_DOUBLE, MPI_INT, MPI_DOUBLE, MPI_INT};
  MPI_Neighbor_alltoallw(&wout, ones, wsd, st, &win, ones, wrd, rt, cart);
  for (int k = 0; k < 4; ++k) {
    int want = nbr[k] == MPI_PROC_NULL ? SENTINEL : alltoall_value(nbr[k], k ^ 1);
    if (k % 2 == 0)
      CHECK(win.d[k / 2] == (nbr[k] == MPI_PROC_NULL ? SENTINEL : want + 0.5), "%s alltoallw block %d: %g", grid, k,
            win.d[k / 2]);
    else
      CHECK(win.i[k / 2] == want, "%s alltoallw block %d: %d, expected %d", grid, k, win.i[k / 2], want);
  }
  MPI_Comm_free(&cart);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 12, "needs 12 ranks, has %d", size);
  exercise(rank, 4, 3, 1, 1);
  exercise(rank, 4, 3, 1, 0);
  exercise(rank, 6, 2, 1, 1);
  exercise(rank, 12, 1, 1, 1);
  exercise(rank, 12, 1, 0, 0);

  /* Without a topology: MPI_ERR_TOPOLOGY. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int x = 0, y = 0, cls = -1;
  MPI_Error_class(MPI_Neighbor_allgather(&x, 1, MPI_INT, &y, 1, MPI_INT, MPI_COMM_WORLD), &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY, "neighbor allgather on world: class %d", cls);
  finish("topo_neighbor_cart");
  MPI_Finalize();
  return 0;
}
