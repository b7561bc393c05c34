/* Distributed graph topologies on 6 ranks (MPI-4.1 §8.5.3) over an
 * irregular weighted graph with a repeated edge (0 -> 1 twice) and a self
 * edge (2 -> 2):
 *  - MPI_Dist_graph_create_adjacent, weighted and MPI_UNWEIGHTED;
 *  - MPI_Dist_graph_create with rank 0 naming every edge, with each rank
 *    naming its outgoing edges, with each rank naming its incoming edges,
 *    and with no edges (MPI_WEIGHTS_EMPTY): neighbours and weights in the
 *    documented order (edges grouped by the rank that named them);
 *  - MPI_Dist_graph_neighbors(_count), MPI_Topo_test, a duplicate;
 *  - MPI_Neighbor_allgather, alltoall and alltoallv on the graph: the k-th
 *    edge from a peer carries the peer's k-th block to this process. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

typedef struct {
  int src, dst, weight;
} Edge;

static const Edge kEdges[] = {{0, 1, 5},  {0, 1, 6},  {0, 3, 7},  {1, 2, 8},  {2, 2, 9}, {2, 0, 10},
                              {3, 4, 11}, {4, 0, 12}, {4, 5, 13}, {5, 3, 14}, {1, 5, 15}};
#define NEDGES ((int)(sizeof kEdges / sizeof kEdges[0]))

typedef struct {
  int n_in, n_out;
  int src[NEDGES], sw[NEDGES], dst[NEDGES], dw[NEDGES];
  int in_edge[NEDGES], out_edge[NEDGES]; /* index in kEdges */
} Adjacency;

/* The edges touching `rank`; incoming ones ordered by source rank first
 * when `group_in`, outgoing ones by destination rank first when
 * `group_out` (otherwise in list order). */
static Adjacency expected(int rank, int group_in, int group_out)
{
  Adjacency a;
  memset(&a, 0, sizeof a);
  for (int pass = 0; pass < 6; ++pass)
    for (int e = 0; e < NEDGES; ++e) {
      if (kEdges[e].dst == rank && (group_in ? kEdges[e].src == pass : pass == 0)) {
        a.in_edge[a.n_in] = e;
        a.sw[a.n_in] = kEdges[e].weight;
        a.src[a.n_in++] = kEdges[e].src;
      }
      if (kEdges[e].src == rank && (group_out ? kEdges[e].dst == pass : pass == 0)) {
        a.out_edge[a.n_out] = e;
        a.dw[a.n_out] = kEdges[e].weight;
        a.dst[a.n_out++] = kEdges[e].dst;
      }
    }
  return a;
}

static void verify(MPI_Comm g, const Adjacency* want, int weighted, const char* what)
{
  int kind = -1, in = -1, out = -1, w = -1;
  MPI_Topo_test(g, &kind);
  CHECK(kind == MPI_DIST_GRAPH, "%s: topo_test %d", what, kind);
  MPI_Dist_graph_neighbors_count(g, &in, &out, &w);
  CHECK(in == want->n_in && out == want->n_out && w == weighted, "%s: counts %d %d %d", what, in, out, w);
  int src[NEDGES], sw[NEDGES], dst[NEDGES], dw[NEDGES];
  for (int i = 0; i < NEDGES; ++i)
    src[i] = sw[i] = dst[i] = dw[i] = -1;
  MPI_Dist_graph_neighbors(g, NEDGES, src, weighted ? sw : MPI_UNWEIGHTED, NEDGES, dst,
                           weighted ? dw : MPI_UNWEIGHTED);
  for (int i = 0; i < want->n_in; ++i)
    CHECK(src[i] == want->src[i] && (!weighted || sw[i] == want->sw[i]), "%s: source %d = %d (weight %d)", what, i,
          src[i], sw[i]);
  for (int i = 0; i < want->n_out; ++i)
    CHECK(dst[i] == want->dst[i] && (!weighted || dw[i] == want->dw[i]), "%s: destination %d = %d (weight %d)",
          what, i, dst[i], dw[i]);
}

/* The position, in `peer`'s destinations, of the k-th edge peer -> rank
 * (list order at both ends). */
static int block_at_peer(int peer, int rank, int k)
{
  Adjacency p = expected(peer, 0, 0);
  for (int j = 0; j < p.n_out; ++j)
    if (p.dst[j] == rank && k-- == 0)
      return j;
  return -1;
}

static void collectives(MPI_Comm g, int rank, const Adjacency* a)
{
  int mine = 10 * rank + 1, got[NEDGES];
  for (int i = 0; i < NEDGES; ++i)
    got[i] = -1;
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g);
  for (int i = 0; i < a->n_in; ++i)
    CHECK(got[i] == 10 * a->src[i] + 1, "allgather block %d: %d", i, got[i]);

  int out[NEDGES], in[NEDGES];
  for (int j = 0; j < NEDGES; ++j) {
    out[j] = 100 * rank + j;
    in[j] = -1;
  }
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, g);
  for (int i = 0; i < a->n_in; ++i) {
    int k = 0;
    for (int m = 0; m < i; ++m)
      k += a->src[m] == a->src[i];
    int want = 100 * a->src[i] + block_at_peer(a->src[i], rank, k);
    CHECK(in[i] == want, "alltoall block %d from %d: %d, expected %d", i, a->src[i], in[i], want);
  }

  /* alltoallv: edge e carries weight % 3 + 1 values 1000 * e + t */
  int scounts[NEDGES], sdispls[NEDGES], rcounts[NEDGES], rdispls[NEDGES], vout[3 * NEDGES], vin[3 * NEDGES];
  int at = 0;
  for (int j = 0; j < a->n_out; ++j) {
    int e = a->out_edge[j];
    scounts[j] = kEdges[e].weight % 3 + 1;
    sdispls[j] = at;
    for (int t = 0; t < scounts[j]; ++t)
      vout[at + t] = 1000 * e + t;
    at += scounts[j];
  }
  at = 0;
  for (int i = 0; i < a->n_in; ++i) {
    rcounts[i] = kEdges[a->in_edge[i]].weight % 3 + 1;
    rdispls[i] = at;
    at += rcounts[i];
  }
  for (int i = 0; i < 3 * NEDGES; ++i)
    vin[i] = -1;
  MPI_Neighbor_alltoallv(vout, scounts, sdispls, MPI_INT, vin, rcounts, rdispls, MPI_INT, g);
  for (int i = 0; i < a->n_in; ++i)
    for (int t = 0; t < rcounts[i]; ++t)
      CHECK(vin[rdispls[i] + t] == 1000 * a->in_edge[i] + t, "alltoallv block %d[%d]: %d", i, t,
            vin[rdispls[i] + t]);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 6, "needs 6 ranks, has %d", size);
  Adjacency listed = expected(rank, 0, 0);
  MPI_Comm g;

  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, listed.n_in, listed.src, listed.sw, listed.n_out, listed.dst,
                                 listed.dw, MPI_INFO_NULL, 1, &g);
  verify(g, &listed, 1, "adjacent");
  collectives(g, rank, &listed);
  MPI_Comm dup;
  MPI_Comm_dup(g, &dup);
  verify(dup, &listed, 1, "dup of adjacent");
  MPI_Comm_free(&dup);
  MPI_Comm_free(&g);

  MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, listed.n_in, listed.src, MPI_UNWEIGHTED, listed.n_out, listed.dst,
                                 MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  verify(g, &listed, 0, "adjacent unweighted");
  MPI_Comm_free(&g);

  /* Rank 0 names every edge: both ends keep rank 0's (list) order. */
  int sources[NEDGES], degrees[NEDGES], dests[NEDGES], weights[NEDGES];
  for (int e = 0; e < NEDGES; ++e) {
    sources[e] = kEdges[e].src;
    degrees[e] = 1;
    dests[e] = kEdges[e].dst;
    weights[e] = kEdges[e].weight;
  }
  MPI_Dist_graph_create(MPI_COMM_WORLD, rank == 0 ? NEDGES : 0, sources, degrees, dests, weights, MPI_INFO_NULL, 0,
                        &g);
  verify(g, &listed, 1, "create by rank 0");
  collectives(g, rank, &listed);
  MPI_Comm_free(&g);

  /* Each rank names its outgoing edges: incoming ones grouped by source. */
  Adjacency by_source = expected(rank, 1, 0);
  int one = rank;
  MPI_Dist_graph_create(MPI_COMM_WORLD, 1, &one, &listed.n_out, listed.dst, listed.dw, MPI_INFO_NULL, 1, &g);
  verify(g, &by_source, 1, "create by sources");
  collectives(g, rank, &by_source);
  MPI_Comm_free(&g);

  /* Each rank names its incoming edges: outgoing ones grouped by destination. */
  Adjacency by_dest = expected(rank, 0, 1);
  int ones[NEDGES], me[NEDGES];
  for (int i = 0; i < NEDGES; ++i) {
    ones[i] = 1;
    me[i] = rank;
  }
  MPI_Dist_graph_create(MPI_COMM_WORLD, listed.n_in, listed.src, ones, me, MPI_UNWEIGHTED, MPI_INFO_NULL, 0, &g);
  verify(g, &by_dest, 0, "create by destinations, unweighted");
  MPI_Comm_free(&g);

  /* No edges at all. */
  Adjacency none;
  memset(&none, 0, sizeof none);
  MPI_Dist_graph_create(MPI_COMM_WORLD, 0, NULL, NULL, NULL, MPI_WEIGHTS_EMPTY, MPI_INFO_NULL, 0, &g);
  verify(g, &none, 1, "no edges");
  MPI_Comm_free(&g);

  /* A destination outside the communicator. */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int bad = 6, cls = -1;
  MPI_Error_class(MPI_Dist_graph_create_adjacent(MPI_COMM_WORLD, 0, NULL, MPI_UNWEIGHTED, 1, &bad, MPI_UNWEIGHTED,
                                                 MPI_INFO_NULL, 0, &g),
                  &cls);
  CHECK(cls == MPI_ERR_RANK, "destination 6: class %d", cls);
  finish("topo_distgraph");
  MPI_Finalize();
  return 0;
}
