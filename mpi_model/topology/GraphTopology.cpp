#include "topology/GraphTopology.hpp"

#include <mpi.h>

namespace progsim::mpi::topology {

GraphTopology::GraphTopology(std::vector<int> index, std::vector<int> edges)
    : index_(std::move(index)), edges_(std::move(edges))
{
}

std::string GraphTopology::check(int nnodes, const int* index, const int* edges, int group_size)
{
  if (nnodes < 0 || nnodes > group_size)
    return "nnodes = " + std::to_string(nnodes) + " (must be in [0, " + std::to_string(group_size) + "])";
  if (nnodes == 0)
    return {};
  if (!index)
    return "null index array";
  int previous = 0;
  for (int i = 0; i < nnodes; ++i) {
    if (index[i] < previous)
      return "index[" + std::to_string(i) + "] = " + std::to_string(index[i]) +
             (i == 0 ? " is negative" : " is below index[" + std::to_string(i - 1) + "]");
    previous = index[i];
  }
  if (previous > 0 && !edges)
    return "null edges array";
  for (int j = 0; j < previous; ++j)
    if (edges[j] < 0 || edges[j] >= nnodes)
      return "edges[" + std::to_string(j) + "] = " + std::to_string(edges[j]) + " is not a node (nnodes = " +
             std::to_string(nnodes) + ")";
  return {};
}

int GraphTopology::kind() const
{
  return MPI_GRAPH;
}

std::vector<int> GraphTopology::neighbors_of(int node) const
{
  auto u = static_cast<size_t>(node);
  int first = node == 0 ? 0 : index_[u - 1];
  return std::vector<int>(edges_.begin() + first, edges_.begin() + index_[u]);
}

Neighbors GraphTopology::neighbors(int rank) const
{
  Neighbors n;
  n.sources = neighbors_of(rank);
  n.destinations = n.sources;
  n.source_channels.assign(n.sources.size(), 0);
  n.destination_channels.assign(n.destinations.size(), 0);
  return n;
}

}  // namespace progsim::mpi::topology
