// MPI_Dist_graph_create (MPI-4.1 §8.5.3): any process may name any edge, so
// the edges are sent to the processes they touch. Each process tells every
// other how many integers it will send it, then sends the edges (source
// process learns an outgoing edge, destination process an incoming one).
// Every process then lists its edges in the order of the process that named
// them (rank 0 first), each in that process's order: deterministic, and the
// order MPI_Dist_graph_neighbors reports and the neighborhood collectives use.
// The count round is n (n - 1) one-integer messages: cheap next to the
// simulation of that many ranks, and it needs no MPI_ANY_SOURCE (which would
// let consecutive calls on one communicator mix their edges).
#pragma once

#include "coll/Collectives.hpp"
#include "topology/DistGraphTopology.hpp"

#include <vector>

namespace progsim::mpi::topology {

struct Edge {
  int source;
  int destination;
  int weight;
};

// Collective over c.comm; `named` are the edges this process passes.
// Returns MPI_SUCCESS or an error class; `mine` gets this process's edges
// (weights kept when `weighted`).
int exchange_edges(const coll::CollCall& c, const std::vector<Edge>& named, bool weighted, Adjacency& mine);

}  // namespace progsim::mpi::topology
