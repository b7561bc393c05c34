// Graph topologies (MPI-4.1 §8.5.3): the whole graph known at every
// process, as MPI_Graph_create's index and edges arrays (index[i] is the
// number of edge entries of nodes 0..i). Self edges and repeated edges are
// allowed (MPI-2.1). The neighborhood collectives send to and receive from
// the neighbours in the order MPI_Graph_neighbors lists them, which is only
// consistent for a symmetric graph (§8.6).
#pragma once

#include "topology/Topology.hpp"

#include <string>
#include <vector>

namespace progsim::mpi::topology {

class GraphTopology final : public Topology {
public:
  GraphTopology(std::vector<int> index, std::vector<int> edges);

  // Why (nnodes, index, edges) is not a graph over at most `group_size`
  // processes, or "" when it is. `index` and `edges` may be null when there
  // is nothing to read in them.
  static std::string check(int nnodes, const int* index, const int* edges, int group_size);

  int kind() const override;
  Neighbors neighbors(int rank) const override;

  int nnodes() const { return static_cast<int>(index_.size()); }
  int nedges() const { return static_cast<int>(edges_.size()); }
  const std::vector<int>& index() const { return index_; }
  const std::vector<int>& edges() const { return edges_; }
  std::vector<int> neighbors_of(int node) const;

private:
  std::vector<int> index_;
  std::vector<int> edges_;
};

}  // namespace progsim::mpi::topology
