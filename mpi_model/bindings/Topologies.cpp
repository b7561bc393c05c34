// MPI-4.1 chapter 8 (process topologies): constructors, inquiry and mapping
// functions of Cartesian, graph and distributed graph topologies. The
// topology kinds are pure logic (topology/); these bindings check the
// arguments and build the communicators.
//
// Constructors make their communicator as MPI_Comm_split does (one collective
// over the parent, see split_communicator) and attach the topology. progsim
// never reorders (reorder is a permission, MPI-4.1 §8.5.1): rank i of the
// new communicator is rank i of the parent, and the processes beyond the
// grid or graph get MPI_COMM_NULL. MPI_Cart_map and MPI_Graph_map give the
// same mapping. Topologies exist on intracommunicators only (§8.1).

#include "bindings/Communicators.hpp"
#include "coll/Collectives.hpp"
#include "topology/CartesianTopology.hpp"
#include "topology/DimsCreate.hpp"
#include "topology/DistGraphTopology.hpp"
#include "topology/EdgeExchange.hpp"
#include "topology/GraphTopology.hpp"
#include "topology/TopologyTags.hpp"

#include <algorithm>
#include <type_traits>
#include <vector>

using namespace progsim;
using namespace progsim::mpi;
using topology::CartesianTopology;
using topology::DistGraphTopology;
using topology::GraphTopology;

namespace {

int begin(const Binding& b, MPI_Comm comm, const Communicator*& c, bool collective)
{
  if (int err = b.check_initialized())
    return err;
  if (int err = b.resolve_comm(comm, c))
    return err;
  if (c->is_inter())
    return b.error(comm, MPI_ERR_COMM, std::string(b.call()) + ": topologies exist on intracommunicators only");
  if (collective)
    coll::note_collective(b, *c, b.call());
  return MPI_SUCCESS;
}

int null_argument(const Binding& b, MPI_Comm comm, const char* what)
{
  return b.error(comm, MPI_ERR_ARG, std::string("null ") + what);
}

// The communicator's topology when it is of `kind` (MPI_CART...), else
// nullptr after raising MPI_ERR_TOPOLOGY (`err` gets the code).
template <class Kind>
const Kind* topology_of(const Binding& b, MPI_Comm comm, const Communicator& c, int& err)
{
  const auto* t = dynamic_cast<const Kind*>(c.topology.get());
  if (!t) {
    const char* wanted = std::is_same_v<Kind, CartesianTopology> ? "a Cartesian"
                         : std::is_same_v<Kind, GraphTopology>   ? "a graph"
                                                                 : "a distributed graph";
    err = b.error(comm, MPI_ERR_TOPOLOGY, std::string("the communicator does not have ") + wanted + " topology");
  }
  return t;
}

// The start of an inquiry: MPI usable, `comm` an intracommunicator with a
// topology of `Kind`; nullptr (with `err` set) otherwise.
template <class Kind>
const Kind* inquire(const Binding& b, MPI_Comm comm, const Communicator*& c, int& err)
{
  err = begin(b, comm, c, false);
  return err ? nullptr : topology_of<Kind>(b, comm, *c, err);
}

// The new communicator of processes 0..members-1 of `parent` (ranks kept),
// with `topo` attached; MPI_COMM_NULL for the others.
int create_with(const Binding& b, MPI_Comm comm, const Communicator& parent, int members,
                topology::TopologyPtr topo, MPI_Comm* newcomm)
{
  int color = parent.my_rank < members ? 0 : MPI_UNDEFINED;
  if (int err = split_communicator(b, comm, parent, color, parent.my_rank, newcomm))
    return err;
  if (*newcomm != MPI_COMM_NULL)
    b.model().communicators().get(*newcomm, b.world())->topology = std::move(topo);
  return MPI_SUCCESS;
}

std::vector<int> copy_of(const int* values, int n)
{
  return n > 0 ? std::vector<int>(values, values + n) : std::vector<int>{};
}

int check_cart_args(const Binding& b, MPI_Comm comm, const Communicator& c, int ndims, const int* dims,
                    const int* periods)
{
  if (ndims < 0)
    return b.error(comm, MPI_ERR_DIMS, "negative ndims " + std::to_string(ndims));
  if (ndims > 0 && (!dims || !periods))
    return null_argument(b, comm, "dims or periods array");
  std::string why = CartesianTopology::check(copy_of(dims, ndims), c.group->size());
  if (!why.empty())
    return b.error(comm, MPI_ERR_DIMS, why);
  return MPI_SUCCESS;
}

std::vector<bool> flags_of(const int* values, int n)
{
  std::vector<bool> flags(static_cast<size_t>(std::max(n, 0)));
  for (int i = 0; i < n; ++i)
    flags[static_cast<size_t>(i)] = values[i] != 0;
  return flags;
}

int check_graph_args(const Binding& b, MPI_Comm comm, const Communicator& c, int nnodes, const int* index,
                     const int* edges)
{
  std::string why = GraphTopology::check(nnodes, index, edges, c.group->size());
  if (!why.empty())
    return b.error(comm, MPI_ERR_ARG, why);
  return MPI_SUCCESS;
}

// Ranks of `comm` (MPI_Dist_graph_create*): `what`[i] for i < n.
int check_ranks(const Binding& b, MPI_Comm comm, const Communicator& c, const int* ranks, int n, const char* what)
{
  if (n > 0 && !ranks)
    return null_argument(b, comm, what);
  for (int i = 0; i < n; ++i)
    if (ranks[i] < 0 || ranks[i] >= c.size())
      return b.error(comm, MPI_ERR_RANK,
                     std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(ranks[i]) +
                         " is not a rank of the communicator (size " + std::to_string(c.size()) + ")");
  return MPI_SUCCESS;
}

// Edge weights (MPI-4.1 §8.5.3): MPI_UNWEIGHTED, MPI_WEIGHTS_EMPTY (only for
// no edges), or n non-negative values.
int check_weights(const Binding& b, MPI_Comm comm, const int* weights, int n, const char* what)
{
  if (weights == MPI_UNWEIGHTED || n == 0)
    return MPI_SUCCESS;
  if (weights == MPI_WEIGHTS_EMPTY)
    return b.error(comm, MPI_ERR_ARG, std::string(what) + " is MPI_WEIGHTS_EMPTY but there are edges");
  if (!weights)
    return null_argument(b, comm, what);
  for (int i = 0; i < n; ++i)
    if (weights[i] < 0)
      return b.error(comm, MPI_ERR_ARG,
                     std::string(what) + "[" + std::to_string(i) + "] = " + std::to_string(weights[i]) +
                         " is negative");
  return MPI_SUCCESS;
}

int check_info(const Binding& b, MPI_Info info)
{
  Info hints;  // the topology hints are accepted and not used
  return info_contents(b, info, hints);
}

int create_dist_graph(const Binding& b, MPI_Comm comm, const Communicator& parent, topology::Adjacency adjacency,
                      MPI_Comm* newcomm)
{
  auto topo = std::make_shared<const DistGraphTopology>(std::move(adjacency));
  return create_with(b, comm, parent, parent.size(), std::move(topo), newcomm);
}

// Copies min(n, max) values to `out` (a null `out` with nothing to copy is fine).
void copy_out(const std::vector<int>& values, int max, int* out)
{
  int n = std::min(static_cast<int>(values.size()), std::max(max, 0));
  if (n > 0)
    std::copy(values.begin(), values.begin() + n, out);
}

}  // namespace

extern "C" {

int PMPI_Dims_create(int nnodes, int ndims, int dims[])
{
  Binding b("MPI_Dims_create");
  if (int err = b.check_initialized())
    return err;
  if (ndims < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_DIMS, "negative ndims " + std::to_string(ndims));
  if (ndims > 0 && !dims)
    return null_argument(b, MPI_COMM_WORLD, "dims array");
  std::vector<int> values = copy_of(dims, ndims);
  topology::DimsResult r = topology::dims_create(nnodes, values);
  if (!r.ok)
    return b.error(MPI_COMM_WORLD, MPI_ERR_DIMS, r.error);
  std::copy(values.begin(), values.end(), dims);
  return MPI_SUCCESS;
}

int PMPI_Cart_create(MPI_Comm comm_old, int ndims, const int dims[], const int periods[], int /*reorder*/,
                     MPI_Comm* comm_cart)
{
  Binding b("MPI_Cart_create");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm_old, c, true))
    return err;
  if (int err = check_cart_args(b, comm_old, *c, ndims, dims, periods))
    return err;
  if (!comm_cart)
    return null_argument(b, comm_old, "comm_cart pointer");
  auto topo = std::make_shared<const CartesianTopology>(copy_of(dims, ndims), flags_of(periods, ndims));
  int members = topo->size();
  return create_with(b, comm_old, *c, members, std::move(topo), comm_cart);
}

int PMPI_Cart_map(MPI_Comm comm, int ndims, const int dims[], const int periods[], int* newrank)
{
  Binding b("MPI_Cart_map");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  if (int err = check_cart_args(b, comm, *c, ndims, dims, periods))
    return err;
  if (!newrank)
    return null_argument(b, comm, "newrank pointer");
  int members = CartesianTopology(copy_of(dims, ndims), {}).size();
  *newrank = c->my_rank < members ? c->my_rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int PMPI_Graph_create(MPI_Comm comm_old, int nnodes, const int index[], const int edges[], int /*reorder*/,
                      MPI_Comm* comm_graph)
{
  Binding b("MPI_Graph_create");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm_old, c, true))
    return err;
  if (int err = check_graph_args(b, comm_old, *c, nnodes, index, edges))
    return err;
  if (!comm_graph)
    return null_argument(b, comm_old, "comm_graph pointer");
  std::vector<int> idx = copy_of(index, nnodes);
  std::vector<int> e = copy_of(edges, idx.empty() ? 0 : idx.back());
  auto topo = std::make_shared<const GraphTopology>(std::move(idx), std::move(e));
  return create_with(b, comm_old, *c, nnodes, std::move(topo), comm_graph);
}

int PMPI_Graph_map(MPI_Comm comm, int nnodes, const int index[], const int edges[], int* newrank)
{
  Binding b("MPI_Graph_map");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c, false))
    return err;
  if (int err = check_graph_args(b, comm, *c, nnodes, index, edges))
    return err;
  if (!newrank)
    return null_argument(b, comm, "newrank pointer");
  *newrank = c->my_rank < nnodes ? c->my_rank : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int PMPI_Topo_test(MPI_Comm comm, int* status)
{
  Binding b("MPI_Topo_test");
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  if (!status)
    return null_argument(b, comm, "status pointer");
  *status = c->topology ? c->topology->kind() : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

int PMPI_Cartdim_get(MPI_Comm comm, int* ndims)
{
  Binding b("MPI_Cartdim_get");
  const Communicator* c = nullptr;
  int err = 0;
  const CartesianTopology* cart = inquire<CartesianTopology>(b, comm, c, err);
  if (!cart)
    return err;
  if (!ndims)
    return null_argument(b, comm, "ndims pointer");
  *ndims = cart->ndims();
  return MPI_SUCCESS;
}

int PMPI_Cart_get(MPI_Comm comm, int maxdims, int dims[], int periods[], int coords[])
{
  Binding b("MPI_Cart_get");
  const Communicator* c = nullptr;
  int err = 0;
  const CartesianTopology* cart = inquire<CartesianTopology>(b, comm, c, err);
  if (!cart)
    return err;
  int n = cart->ndims();
  if (maxdims < n)
    return b.error(comm, MPI_ERR_ARG,
                   "maxdims " + std::to_string(maxdims) + " is below the number of dimensions " + std::to_string(n));
  if (n > 0 && (!dims || !periods || !coords))
    return null_argument(b, comm, "dims, periods or coords array");
  std::vector<int> mine = cart->coords(c->my_rank);
  for (int i = 0; i < n; ++i) {
    auto u = static_cast<size_t>(i);
    dims[i] = cart->dims()[u];
    periods[i] = cart->periods()[u] ? 1 : 0;
    coords[i] = mine[u];
  }
  return MPI_SUCCESS;
}

int PMPI_Cart_rank(MPI_Comm comm, const int coords[], int* rank)
{
  Binding b("MPI_Cart_rank");
  const Communicator* c = nullptr;
  int err = 0;
  const CartesianTopology* cart = inquire<CartesianTopology>(b, comm, c, err);
  if (!cart)
    return err;
  if (!rank || (cart->ndims() > 0 && !coords))
    return null_argument(b, comm, "coords array or rank pointer");
  std::string why;
  int r = cart->rank(copy_of(coords, cart->ndims()), why);
  if (r < 0)
    return b.error(comm, MPI_ERR_ARG, why);
  *rank = r;
  return MPI_SUCCESS;
}

int PMPI_Cart_coords(MPI_Comm comm, int rank, int maxdims, int coords[])
{
  Binding b("MPI_Cart_coords");
  const Communicator* c = nullptr;
  int err = 0;
  const CartesianTopology* cart = inquire<CartesianTopology>(b, comm, c, err);
  if (!cart)
    return err;
  if (rank < 0 || rank >= cart->size())
    return b.error(comm, MPI_ERR_RANK,
                   "rank " + std::to_string(rank) + " is not in the grid of " + std::to_string(cart->size()));
  if (maxdims < cart->ndims())
    return b.error(comm, MPI_ERR_ARG,
                   "maxdims " + std::to_string(maxdims) + " is below the number of dimensions " +
                       std::to_string(cart->ndims()));
  if (cart->ndims() > 0 && !coords)
    return null_argument(b, comm, "coords array");
  copy_out(cart->coords(rank), cart->ndims(), coords);
  return MPI_SUCCESS;
}

int PMPI_Cart_shift(MPI_Comm comm, int direction, int disp, int* rank_source, int* rank_dest)
{
  Binding b("MPI_Cart_shift");
  const Communicator* c = nullptr;
  int err = 0;
  const CartesianTopology* cart = inquire<CartesianTopology>(b, comm, c, err);
  if (!cart)
    return err;
  if (direction < 0 || direction >= cart->ndims())
    return b.error(comm, MPI_ERR_ARG,
                   "direction " + std::to_string(direction) + " is not a dimension (ndims = " +
                       std::to_string(cart->ndims()) + ")");
  if (!rank_source || !rank_dest)
    return null_argument(b, comm, "rank_source or rank_dest pointer");
  CartesianTopology::Shift s = cart->shift(c->my_rank, direction, disp);
  *rank_source = s.source;
  *rank_dest = s.dest;
  return MPI_SUCCESS;
}

int PMPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)
{
  Binding b("MPI_Cart_sub");
  const Communicator* c = nullptr;
  int err = begin(b, comm, c, true);
  const CartesianTopology* cart = err ? nullptr : topology_of<CartesianTopology>(b, comm, *c, err);
  if (!cart)
    return err;
  if (!newcomm || (cart->ndims() > 0 && !remain_dims))
    return null_argument(b, comm, "remain_dims array or newcomm pointer");
  std::vector<bool> remain = flags_of(remain_dims, cart->ndims());
  auto sub = std::make_shared<const CartesianTopology>(cart->sub(remain));
  int color = cart->sub_color(c->my_rank, remain);
  int key = cart->sub_key(c->my_rank, remain);
  if (sub->ndims() == 0) {
    // No dimension kept (MPI-4.1 §8.5.7): the result is zero-dimensional,
    // a grid of one process. Like MPI_Cart_create with ndims = 0, it holds
    // the first process (a communicator congruent to MPI_COMM_SELF) and the
    // others get MPI_COMM_NULL, as in MPICH.
    color = c->my_rank == 0 ? 0 : MPI_UNDEFINED;
  }
  if (int e = split_communicator(b, comm, *c, color, key, newcomm))
    return e;
  if (*newcomm != MPI_COMM_NULL)
    b.model().communicators().get(*newcomm, b.world())->topology = std::move(sub);
  return MPI_SUCCESS;
}

int PMPI_Graphdims_get(MPI_Comm comm, int* nnodes, int* nedges)
{
  Binding b("MPI_Graphdims_get");
  const Communicator* c = nullptr;
  int err = 0;
  const GraphTopology* graph = inquire<GraphTopology>(b, comm, c, err);
  if (!graph)
    return err;
  if (!nnodes || !nedges)
    return null_argument(b, comm, "nnodes or nedges pointer");
  *nnodes = graph->nnodes();
  *nedges = graph->nedges();
  return MPI_SUCCESS;
}

int PMPI_Graph_get(MPI_Comm comm, int maxindex, int maxedges, int index[], int edges[])
{
  Binding b("MPI_Graph_get");
  const Communicator* c = nullptr;
  int err = 0;
  const GraphTopology* graph = inquire<GraphTopology>(b, comm, c, err);
  if (!graph)
    return err;
  if ((maxindex > 0 && !index) || (maxedges > 0 && !edges))
    return null_argument(b, comm, "index or edges array");
  copy_out(graph->index(), maxindex, index);
  copy_out(graph->edges(), maxedges, edges);
  return MPI_SUCCESS;
}

int PMPI_Graph_neighbors_count(MPI_Comm comm, int rank, int* nneighbors)
{
  Binding b("MPI_Graph_neighbors_count");
  const Communicator* c = nullptr;
  int err = 0;
  const GraphTopology* graph = inquire<GraphTopology>(b, comm, c, err);
  if (!graph)
    return err;
  if (rank < 0 || rank >= graph->nnodes())
    return b.error(comm, MPI_ERR_RANK,
                   "rank " + std::to_string(rank) + " is not a node (nnodes = " + std::to_string(graph->nnodes()) +
                       ")");
  if (!nneighbors)
    return null_argument(b, comm, "nneighbors pointer");
  *nneighbors = static_cast<int>(graph->neighbors_of(rank).size());
  return MPI_SUCCESS;
}

int PMPI_Graph_neighbors(MPI_Comm comm, int rank, int maxneighbors, int neighbors[])
{
  Binding b("MPI_Graph_neighbors");
  const Communicator* c = nullptr;
  int err = 0;
  const GraphTopology* graph = inquire<GraphTopology>(b, comm, c, err);
  if (!graph)
    return err;
  if (rank < 0 || rank >= graph->nnodes())
    return b.error(comm, MPI_ERR_RANK,
                   "rank " + std::to_string(rank) + " is not a node (nnodes = " + std::to_string(graph->nnodes()) +
                       ")");
  if (maxneighbors > 0 && !neighbors)
    return null_argument(b, comm, "neighbors array");
  copy_out(graph->neighbors_of(rank), maxneighbors, neighbors);
  return MPI_SUCCESS;
}

int PMPI_Dist_graph_create_adjacent(MPI_Comm comm_old, int indegree, const int sources[],
                                    const int sourceweights[], int outdegree, const int destinations[],
                                    const int destweights[], MPI_Info info, int /*reorder*/,
                                    MPI_Comm* comm_dist_graph)
{
  Binding b("MPI_Dist_graph_create_adjacent");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm_old, c, true))
    return err;
  if (indegree < 0 || outdegree < 0)
    return b.error(comm_old, MPI_ERR_ARG,
                   "negative indegree or outdegree (" + std::to_string(indegree) + ", " + std::to_string(outdegree) +
                       ")");
  if (int err = check_ranks(b, comm_old, *c, sources, indegree, "sources"))
    return err;
  if (int err = check_ranks(b, comm_old, *c, destinations, outdegree, "destinations"))
    return err;
  if (int err = check_weights(b, comm_old, sourceweights, indegree, "sourceweights"))
    return err;
  if (int err = check_weights(b, comm_old, destweights, outdegree, "destweights"))
    return err;
  if (int err = check_info(b, info))
    return err;
  if (!comm_dist_graph)
    return null_argument(b, comm_old, "comm_dist_graph pointer");
  topology::Adjacency a;
  a.weighted = sourceweights != MPI_UNWEIGHTED && destweights != MPI_UNWEIGHTED;
  a.sources = copy_of(sources, indegree);
  a.destinations = copy_of(destinations, outdegree);
  if (a.weighted) {
    a.source_weights = copy_of(sourceweights, indegree);
    a.destination_weights = copy_of(destweights, outdegree);
  }
  return create_dist_graph(b, comm_old, *c, std::move(a), comm_dist_graph);
}

int PMPI_Dist_graph_create(MPI_Comm comm_old, int n, const int sources[], const int degrees[],
                           const int destinations[], const int weights[], MPI_Info info, int /*reorder*/,
                           MPI_Comm* comm_dist_graph)
{
  Binding b("MPI_Dist_graph_create");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm_old, c, true))
    return err;
  if (n < 0)
    return b.error(comm_old, MPI_ERR_ARG, "negative n " + std::to_string(n));
  if (n > 0 && !degrees)
    return null_argument(b, comm_old, "degrees array");
  if (int err = check_ranks(b, comm_old, *c, sources, n, "sources"))
    return err;
  int total = 0;
  for (int i = 0; i < n; ++i) {
    if (degrees[i] < 0)
      return b.error(comm_old, MPI_ERR_ARG,
                     "degrees[" + std::to_string(i) + "] = " + std::to_string(degrees[i]) + " is negative");
    total += degrees[i];
  }
  if (int err = check_ranks(b, comm_old, *c, destinations, total, "destinations"))
    return err;
  if (int err = check_weights(b, comm_old, weights, total, "weights"))
    return err;
  if (int err = check_info(b, info))
    return err;
  if (!comm_dist_graph)
    return null_argument(b, comm_old, "comm_dist_graph pointer");
  bool weighted = weights != MPI_UNWEIGHTED;
  std::vector<topology::Edge> named;
  for (int i = 0, k = 0; i < n; ++i)
    for (int d = 0; d < degrees[i]; ++d, ++k)
      named.push_back({sources[i], destinations[k], weighted && total > 0 ? weights[k] : 1});
  topology::Adjacency a;
  int err = topology::exchange_edges({b, *c, topology::kDistGraphEdgesTag}, named, weighted, a);
  if (err)
    return b.error(comm_old, err, "the exchange of the graph's edges failed");
  return create_dist_graph(b, comm_old, *c, std::move(a), comm_dist_graph);
}

int PMPI_Dist_graph_neighbors_count(MPI_Comm comm, int* indegree, int* outdegree, int* weighted)
{
  Binding b("MPI_Dist_graph_neighbors_count");
  const Communicator* c = nullptr;
  int err = 0;
  const DistGraphTopology* graph = inquire<DistGraphTopology>(b, comm, c, err);
  if (!graph)
    return err;
  if (!indegree || !outdegree || !weighted)
    return null_argument(b, comm, "indegree, outdegree or weighted pointer");
  const topology::Adjacency& a = graph->adjacency();
  *indegree = static_cast<int>(a.sources.size());
  *outdegree = static_cast<int>(a.destinations.size());
  *weighted = a.weighted ? 1 : 0;
  return MPI_SUCCESS;
}

int PMPI_Dist_graph_neighbors(MPI_Comm comm, int maxindegree, int sources[], int sourceweights[], int maxoutdegree,
                              int destinations[], int destweights[])
{
  Binding b("MPI_Dist_graph_neighbors");
  const Communicator* c = nullptr;
  int err = 0;
  const DistGraphTopology* graph = inquire<DistGraphTopology>(b, comm, c, err);
  if (!graph)
    return err;
  const topology::Adjacency& a = graph->adjacency();
  if ((maxindegree > 0 && !sources) || (maxoutdegree > 0 && !destinations))
    return null_argument(b, comm, "sources or destinations array");
  copy_out(a.sources, maxindegree, sources);
  copy_out(a.destinations, maxoutdegree, destinations);
  // Weights are written only for a weighted graph, into real arrays.
  auto writable = [](const int* w) { return w && w != MPI_UNWEIGHTED && w != MPI_WEIGHTS_EMPTY; };
  if (a.weighted && writable(sourceweights))
    copy_out(a.source_weights, maxindegree, sourceweights);
  if (a.weighted && writable(destweights))
    copy_out(a.destination_weights, maxoutdegree, destweights);
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Dims_create)
PROGSIM_MPI_ALIAS(MPI_Cart_create)
PROGSIM_MPI_ALIAS(MPI_Cart_map)
PROGSIM_MPI_ALIAS(MPI_Graph_create)
PROGSIM_MPI_ALIAS(MPI_Graph_map)
PROGSIM_MPI_ALIAS(MPI_Topo_test)
PROGSIM_MPI_ALIAS(MPI_Cartdim_get)
PROGSIM_MPI_ALIAS(MPI_Cart_get)
PROGSIM_MPI_ALIAS(MPI_Cart_rank)
PROGSIM_MPI_ALIAS(MPI_Cart_coords)
PROGSIM_MPI_ALIAS(MPI_Cart_shift)
PROGSIM_MPI_ALIAS(MPI_Cart_sub)
PROGSIM_MPI_ALIAS(MPI_Graphdims_get)
PROGSIM_MPI_ALIAS(MPI_Graph_get)
PROGSIM_MPI_ALIAS(MPI_Graph_neighbors_count)
PROGSIM_MPI_ALIAS(MPI_Graph_neighbors)
PROGSIM_MPI_ALIAS(MPI_Dist_graph_create_adjacent)
PROGSIM_MPI_ALIAS(MPI_Dist_graph_create)
PROGSIM_MPI_ALIAS(MPI_Dist_graph_neighbors_count)
PROGSIM_MPI_ALIAS(MPI_Dist_graph_neighbors)
