/* Graph topologies on 5 ranks (MPI-4.1 §8.5.3): a symmetric graph on nodes
 * 0..3 (rank 4 gets MPI_COMM_NULL) with a self edge at node 0 and the edge
 * 1-2 given twice; MPI_Graphdims_get, MPI_Graph_get, MPI_Graph_neighbors
 * (_count), MPI_Graph_map, MPI_Topo_test, a duplicate keeping the graph,
 * the empty graph (MPI_COMM_NULL everywhere), an invalid edge, and
 * MPI_Neighbor_allgather / alltoall over the graph (repeated and self edges
 * matched in order). */
#include "check.h"

/*   0: 0 1 3     (self edge)
 *   1: 0 2 2     (1-2 twice)
 *   2: 1 1 3
 *   3: 0 2       */
static const int kIndex[4] = {3, 6, 9, 11};
static const int kEdges[11] = {0, 1, 3, 0, 2, 2, 1, 1, 3, 0, 2};

static int degree(int node) { return kIndex[node] - (node == 0 ? 0 : kIndex[node - 1]); }
static const int* adjacent(int node) { return kEdges + (node == 0 ? 0 : kIndex[node - 1]); }

/* The position of `me` among the neighbours of `node` that is the
 * `occurrence`-th time `me` appears there. */
static int position_of(int node, int me, int occurrence)
{
  for (int i = 0; i < degree(node); ++i)
    if (adjacent(node)[i] == me && occurrence-- == 0)
      return i;
  return -1;
}

static void graph(int rank)
{
  MPI_Comm g;
  MPI_Graph_create(MPI_COMM_WORLD, 4, kIndex, kEdges, 1, &g);
  int newrank = -2;
  MPI_Graph_map(MPI_COMM_WORLD, 4, kIndex, kEdges, &newrank);
  if (rank == 4) {
    CHECK(g == MPI_COMM_NULL, "rank 4 is not a node");
    CHECK(newrank == MPI_UNDEFINED, "graph_map beyond the graph %d", newrank);
    return;
  }
  CHECK(newrank == rank, "graph_map %d", newrank);
  int kind = -1, nnodes = -1, nedges = -1;
  MPI_Topo_test(g, &kind);
  CHECK(kind == MPI_GRAPH, "topo_test %d", kind);
  MPI_Graphdims_get(g, &nnodes, &nedges);
  CHECK(nnodes == 4 && nedges == 11, "graphdims %d %d", nnodes, nedges);
  int index[4], edges[11];
  MPI_Graph_get(g, 4, 11, index, edges);
  for (int i = 0; i < 4; ++i)
    CHECK(index[i] == kIndex[i], "index[%d] = %d", i, index[i]);
  for (int i = 0; i < 11; ++i)
    CHECK(edges[i] == kEdges[i], "edges[%d] = %d", i, edges[i]);
  for (int node = 0; node < 4; ++node) {
    int count = -1, list[3] = {-1, -1, -1};
    MPI_Graph_neighbors_count(g, node, &count);
    CHECK(count == degree(node), "neighbors_count(%d) = %d", node, count);
    MPI_Graph_neighbors(g, node, 3, list);
    for (int i = 0; i < count; ++i)
      CHECK(list[i] == adjacent(node)[i], "neighbors(%d)[%d] = %d", node, i, list[i]);
  }
  MPI_Comm_set_errhandler(g, MPI_ERRORS_RETURN);
  int cls = -1, ndims = -1;
  MPI_Error_class(MPI_Cartdim_get(g, &ndims), &cls);
  CHECK(cls == MPI_ERR_TOPOLOGY, "cartdim_get on a graph: class %d", cls);
  MPI_Error_class(MPI_Graph_neighbors_count(g, 4, &ndims), &cls);
  CHECK(cls == MPI_ERR_RANK, "neighbors_count(4): class %d", cls);

  /* allgather: block i comes from neighbour i */
  int mine = 10 * rank, got[3] = {-1, -1, -1};
  MPI_Neighbor_allgather(&mine, 1, MPI_INT, got, 1, MPI_INT, g);
  for (int i = 0; i < degree(rank); ++i)
    CHECK(got[i] == 10 * adjacent(rank)[i], "allgather block %d: %d", i, got[i]);

  /* alltoall: block j goes to neighbour j; the k-th edge to a peer meets
   * the k-th edge from it */
  int out[3], in[3];
  for (int j = 0; j < 3; ++j) {
    out[j] = 100 * rank + j;
    in[j] = -1;
  }
  MPI_Neighbor_alltoall(out, 1, MPI_INT, in, 1, MPI_INT, g);
  for (int i = 0; i < degree(rank); ++i) {
    int peer = adjacent(rank)[i], occurrence = 0;
    for (int k = 0; k < i; ++k)
      occurrence += adjacent(rank)[k] == peer;
    int want = 100 * peer + position_of(peer, rank, occurrence);
    CHECK(in[i] == want, "alltoall block %d from %d: %d, expected %d", i, peer, in[i], want);
  }

  MPI_Comm dup;
  MPI_Comm_dup(g, &dup);
  MPI_Topo_test(dup, &kind);
  MPI_Graphdims_get(dup, &nnodes, &nedges);
  CHECK(kind == MPI_GRAPH && nnodes == 4 && nedges == 11, "dup: %d %d %d", kind, nnodes, nedges);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&g);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, size;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size == 5, "needs 5 ranks, has %d", size);
  graph(rank);

  MPI_Comm empty;
  MPI_Graph_create(MPI_COMM_WORLD, 0, NULL, NULL, 0, &empty);
  CHECK(empty == MPI_COMM_NULL, "empty graph");

  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int index[2] = {1, 2}, edges[2] = {1, 2}, cls = -1;
  MPI_Comm bad;
  MPI_Error_class(MPI_Graph_create(MPI_COMM_WORLD, 2, index, edges, 0, &bad), &cls);
  CHECK(cls == MPI_ERR_ARG, "edge to node 2 of a 2-node graph: class %d", cls);
  finish("topo_graph");
  MPI_Finalize();
  return 0;
}
