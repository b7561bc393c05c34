/* Persistent neighborhood collectives (MPI-4.1 §8.8) on 12 ranks:
 * MPI_Neighbor_allgather_init, allgatherv_init, alltoall_init,
 * alltoallv_init and alltoallw_init, each made once and started ITERS times
 * with new send data every time (MPI_Start + MPI_Wait one by one, or
 * MPI_Startall + MPI_Waitall; once with a blocking MPI_Neighbor_allgather on
 * the same communicator while the five are active), on
 *  - a 4 x 3 Cartesian grid periodic in dimension 0 only (MPI_PROC_NULL
 *    neighbours at the borders of dimension 1: their blocks stay untouched);
 *  - an irregular distributed graph with a repeated edge and self edges,
 *    made by MPI_Dist_graph_create_adjacent (the k-th block a peer sends to
 *    this process lands in the k-th receive block from that peer).
 * Then MPI_IN_PLACE is refused (MPI_ERR_BUFFER) and the requests are freed. */
#include "check.h"

#include <string.h>

#define N 12
#define ITERS 4
#define MAXDEG 8
#define UNTOUCHED (-7)

static int value(int rank, int iter, int block) { return 100000 * iter + 100 * rank + block; }

/* --- Cartesian grid ------------------------------------------------------- */

static void cartesian(int rank)
{
  int dims[2] = {4, 3}, periods[2] = {1, 0}, nbr[4];
  MPI_Comm cart;
  MPI_Cart_create(MPI_COMM_WORLD, 2, dims, periods, 0, &cart);
  MPI_Cart_shift(cart, 0, 1, &nbr[0], &nbr[1]);
  MPI_Cart_shift(cart, 1, 1, &nbr[2], &nbr[3]);

  int me, ag[4], agv[8], a2a_out[4], a2a_in[4], v_out[8], v_in[8], w_out[4], w_in[4], pair[2];
  int ones[4] = {1, 1, 1, 1}, twos[4] = {2, 2, 2, 2}, gaps[4] = {6, 4, 2, 0};
  int vdispls[4] = {0, 2, 4, 6};
  MPI_Aint wd[4] = {12, 8, 4, 0}; /* bytes: blocks in reverse order */
  MPI_Datatype ints[4] = {MPI_INT, MPI_INT, MPI_INT, MPI_INT};
  MPI_Request reqs[5];
  MPI_Neighbor_allgather_init(&me, 1, MPI_INT, ag, 1, MPI_INT, cart, MPI_INFO_NULL, &reqs[0]);
  MPI_Neighbor_allgatherv_init(pair, 2, MPI_INT, agv, twos, gaps, MPI_INT, cart, MPI_INFO_NULL, &reqs[1]);
  MPI_Neighbor_alltoall_init(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, cart, MPI_INFO_NULL, &reqs[2]);
  MPI_Neighbor_alltoallv_init(v_out, twos, vdispls, MPI_INT, v_in, twos, vdispls, MPI_INT, cart, MPI_INFO_NULL,
                              &reqs[3]);
  MPI_Neighbor_alltoallw_init(w_out, ones, wd, ints, w_in, ones, wd, ints, cart, MPI_INFO_NULL, &reqs[4]);

  for (int iter = 0; iter < ITERS; ++iter) {
    me = value(rank, iter, 0);
    pair[0] = value(rank, iter, 1);
    pair[1] = -value(rank, iter, 2);
    for (int k = 0; k < 4; ++k) {
      a2a_out[k] = value(rank, iter, 10 + k);
      v_out[2 * k] = value(rank, iter, 20 + k);
      v_out[2 * k + 1] = -value(rank, iter, 20 + k);
      w_out[3 - k] = value(rank, iter, 30 + k); /* block k at byte 12 - 4k */
    }
    for (int i = 0; i < 8; ++i)
      agv[i] = v_in[i] = UNTOUCHED;
    for (int k = 0; k < 4; ++k)
      ag[k] = a2a_in[k] = w_in[k] = UNTOUCHED;

    int blocking_ok = 1;
    if (iter % 2 == 0) {
      for (int q = 0; q < 5; ++q)
        MPI_Start(&reqs[q]);
      if (iter == 2) {
        /* A blocking neighborhood collective while the five are active. */
        int mine = -rank, theirs[4] = {UNTOUCHED, UNTOUCHED, UNTOUCHED, UNTOUCHED};
        MPI_Neighbor_allgather(&mine, 1, MPI_INT, theirs, 1, MPI_INT, cart);
        for (int k = 0; k < 4; ++k)
          blocking_ok &= theirs[k] == (nbr[k] == MPI_PROC_NULL ? UNTOUCHED : -nbr[k]);
      }
      for (int q = 4; q >= 0; --q)
        MPI_Wait(&reqs[q], MPI_STATUS_IGNORE);
    } else {
      MPI_Startall(5, reqs);
      MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE);
    }
    CHECK(blocking_ok, "iteration %d: blocking MPI_Neighbor_allgather among active persistent ones", iter);

    for (int k = 0; k < 4; ++k) {
      int p = nbr[k], from = k ^ 1; /* the peer's block going our way */
      if (p == MPI_PROC_NULL) {
        CHECK(ag[k] == UNTOUCHED && agv[gaps[k]] == UNTOUCHED && a2a_in[k] == UNTOUCHED &&
                  v_in[2 * k] == UNTOUCHED && w_in[3 - k] == UNTOUCHED,
              "iteration %d: block %d of MPI_PROC_NULL written", iter, k);
        continue;
      }
      CHECK(ag[k] == value(p, iter, 0), "iteration %d: allgather block %d: %d", iter, k, ag[k]);
      CHECK(agv[gaps[k]] == value(p, iter, 1) && agv[gaps[k] + 1] == -value(p, iter, 2),
            "iteration %d: allgatherv block %d: %d %d", iter, k, agv[gaps[k]], agv[gaps[k] + 1]);
      CHECK(a2a_in[k] == value(p, iter, 10 + from), "iteration %d: alltoall block %d: %d", iter, k, a2a_in[k]);
      CHECK(v_in[2 * k] == value(p, iter, 20 + from) && v_in[2 * k + 1] == -value(p, iter, 20 + from),
            "iteration %d: alltoallv block %d: %d %d", iter, k, v_in[2 * k], v_in[2 * k + 1]);
      CHECK(w_in[3 - k] == value(p, iter, 30 + from), "iteration %d: alltoallw block %d: %d", iter, k,
            w_in[3 - k]);
    }
  }
  for (int q = 0; q < 5; ++q) {
    MPI_Request_free(&reqs[q]);
    CHECK(reqs[q] == MPI_REQUEST_NULL, "request %d not freed", q);
  }

  /* MPI_IN_PLACE is not allowed (§8.6): an error, no request. */
  MPI_Comm_set_errhandler(cart, MPI_ERRORS_RETURN);
  MPI_Request r = MPI_REQUEST_NULL;
  int err = MPI_Neighbor_alltoall_init(MPI_IN_PLACE, 1, MPI_INT, a2a_in, 1, MPI_INT, cart, MPI_INFO_NULL, &r);
  int cls = -1;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_BUFFER, "MPI_IN_PLACE: class %d", cls);
  CHECK(r == MPI_REQUEST_NULL, "MPI_IN_PLACE: a request was returned");
  MPI_Comm_free(&cart);
}

/* --- distributed graph ---------------------------------------------------- */

/* Rank r sends to r+1 twice (a repeated edge), to r+5, and to itself when
 * r % 4 == 0 (a self edge), in this order. */
static int out_edges(int r, int dst[MAXDEG])
{
  int n = 0;
  dst[n++] = (r + 1) % N;
  dst[n++] = (r + 5) % N;
  dst[n++] = (r + 1) % N;
  if (r % 4 == 0)
    dst[n++] = r;
  return n;
}

/* The edges into `rank`, by source rank, each with its index in the
 * source's list. */
static int in_edges(int rank, int src[MAXDEG], int index_at_src[MAXDEG])
{
  int n = 0;
  for (int s = 0; s < N; ++s) {
    int dst[MAXDEG], m = out_edges(s, dst);
    for (int j = 0; j < m; ++j)
      if (dst[j] == rank) {
        src[n] = s;
        index_at_src[n++] = j;
      }
  }
  return n;
}

static void dist_graph(int rank)
{
  int dst[MAXDEG], src[MAXDEG], at_src[MAXDEG];
  int outdeg = out_edges(rank, dst), indeg = in_edges(rank, src, at_src);
  MPI_Comm g;
  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, indeg, src, MPI_UNWEIGHTED, outdeg, dst, MPI_UNWEIGHTED,
                                 MPI_INFO_NULL, 0, &g);

  /* allgatherv: a process sends 1 + rank % 3 ints; receive blocks apart. */
  int me, ag[MAXDEG], mine[3], agv[4 * MAXDEG], agv_counts[MAXDEG], agv_displs[MAXDEG];
  /* alltoall(v): block j of a process has 1 + j % 2 ints in the v form. */
  int a2a_out[MAXDEG], a2a_in[MAXDEG], v_out[2 * MAXDEG], v_in[2 * MAXDEG];
  int v_scounts[MAXDEG], v_sdispls[MAXDEG], v_rcounts[MAXDEG], v_rdispls[MAXDEG];
  int w_out[MAXDEG], w_in[MAXDEG], ones[MAXDEG];
  MPI_Aint w_sdispls[MAXDEG], w_rdispls[MAXDEG];
  MPI_Datatype ints[MAXDEG];
  for (int i = 0; i < indeg; ++i) {
    agv_counts[i] = 1 + src[i] % 3;
    agv_displs[i] = 4 * i;
    v_rcounts[i] = 1 + at_src[i] % 2;
    v_rdispls[i] = 2 * i;
    w_rdispls[i] = (MPI_Aint)((indeg - 1 - i) * sizeof(int));
  }
  for (int j = 0; j < MAXDEG; ++j) {
    v_scounts[j] = 1 + j % 2;
    v_sdispls[j] = 2 * j;
    w_sdispls[j] = (MPI_Aint)(j * sizeof(int));
    ones[j] = 1;
    ints[j] = MPI_INT;
  }
  MPI_Request reqs[5];
  MPI_Neighbor_allgather_init(&me, 1, MPI_INT, ag, 1, MPI_INT, g, MPI_INFO_NULL, &reqs[0]);
  MPI_Neighbor_allgatherv_init(mine, 1 + rank % 3, MPI_INT, agv, agv_counts, agv_displs, MPI_INT, g, MPI_INFO_NULL,
                               &reqs[1]);
  MPI_Neighbor_alltoall_init(a2a_out, 1, MPI_INT, a2a_in, 1, MPI_INT, g, MPI_INFO_NULL, &reqs[2]);
  MPI_Neighbor_alltoallv_init(v_out, v_scounts, v_sdispls, MPI_INT, v_in, v_rcounts, v_rdispls, MPI_INT, g,
                              MPI_INFO_NULL, &reqs[3]);
  MPI_Neighbor_alltoallw_init(w_out, ones, w_sdispls, ints, w_in, ones, w_rdispls, ints, g, MPI_INFO_NULL,
                              &reqs[4]);

  for (int iter = 0; iter < ITERS; ++iter) {
    me = value(rank, iter, 0);
    for (int c = 0; c < 3; ++c)
      mine[c] = value(rank, iter, 1 + c);
    for (int j = 0; j < outdeg; ++j) {
      a2a_out[j] = value(rank, iter, 10 + j);
      v_out[2 * j] = value(rank, iter, 20 + j);
      v_out[2 * j + 1] = -value(rank, iter, 20 + j);
      w_out[j] = value(rank, iter, 30 + j);
    }
    for (int i = 0; i < 4 * MAXDEG; ++i)
      agv[i] = UNTOUCHED;
    for (int i = 0; i < 2 * MAXDEG; ++i)
      v_in[i] = UNTOUCHED;
    for (int i = 0; i < MAXDEG; ++i)
      ag[i] = a2a_in[i] = w_in[i] = UNTOUCHED;

    if (iter % 2 == 0) {
      MPI_Startall(5, reqs);
      MPI_Waitall(5, reqs, MPI_STATUSES_IGNORE);
    } else {
      for (int q = 0; q < 5; ++q) {
        MPI_Start(&reqs[q]);
        MPI_Wait(&reqs[q], MPI_STATUS_IGNORE);
      }
    }

    for (int i = 0; i < indeg; ++i) {
      int p = src[i], j = at_src[i];
      CHECK(ag[i] == value(p, iter, 0), "iteration %d: graph allgather block %d: %d", iter, i, ag[i]);
      for (int c = 0; c < 4; ++c) {
        int want = c < agv_counts[i] ? value(p, iter, 1 + c) : UNTOUCHED;
        CHECK(agv[4 * i + c] == want, "iteration %d: graph allgatherv block %d item %d: %d", iter, i, c,
              agv[4 * i + c]);
      }
      CHECK(a2a_in[i] == value(p, iter, 10 + j), "iteration %d: graph alltoall block %d: %d", iter, i, a2a_in[i]);
      CHECK(v_in[2 * i] == value(p, iter, 20 + j), "iteration %d: graph alltoallv block %d: %d", iter, i,
            v_in[2 * i]);
      CHECK(v_in[2 * i + 1] == (j % 2 ? -value(p, iter, 20 + j) : UNTOUCHED),
            "iteration %d: graph alltoallv block %d second item: %d", iter, i, v_in[2 * i + 1]);
      CHECK(w_in[indeg - 1 - i] == value(p, iter, 30 + j), "iteration %d: graph alltoallw block %d: %d", iter, i,
            w_in[indeg - 1 - i]);
    }
  }
  for (int q = 0; q < 5; ++q)
    MPI_Request_free(&reqs[q]);
  MPI_Comm_free(&g);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == N, "needs %d ranks, has %d", N, size);
  if (size == N) {
    cartesian(rank);
    dist_graph(rank);
  }
  finish("topo_pneighbor");
  MPI_Finalize();
  return 0;
}
