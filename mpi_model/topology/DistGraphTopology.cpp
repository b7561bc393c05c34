#include "topology/DistGraphTopology.hpp"

#include <mpi.h>

namespace progsim::mpi::topology {

DistGraphTopology::DistGraphTopology(Adjacency adjacency) : adjacency_(std::move(adjacency)) {}

int DistGraphTopology::kind() const
{
  return MPI_DIST_GRAPH;
}

Neighbors DistGraphTopology::neighbors(int /*rank*/) const
{
  Neighbors n;
  n.sources = adjacency_.sources;
  n.destinations = adjacency_.destinations;
  n.source_channels.assign(n.sources.size(), 0);
  n.destination_channels.assign(n.destinations.size(), 0);
  return n;
}

}  // namespace progsim::mpi::topology
