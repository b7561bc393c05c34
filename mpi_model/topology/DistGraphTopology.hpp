// Distributed graph topologies (MPI-4.1 §8.5.3): each process knows only
// its own incoming and outgoing edges, with optional weights. Repeated
// edges are allowed; the neighborhood collectives match the k-th block a
// process sends to a peer with the k-th block that peer receives from it.
#pragma once

#include "topology/Topology.hpp"

#include <vector>

namespace progsim::mpi::topology {

struct Adjacency {
  std::vector<int> sources;
  std::vector<int> source_weights;  // empty when unweighted
  std::vector<int> destinations;
  std::vector<int> destination_weights;
  bool weighted = false;
};

class DistGraphTopology final : public Topology {
public:
  explicit DistGraphTopology(Adjacency adjacency);

  int kind() const override;
  // The calling process's neighbourhood (the topology object is per process).
  Neighbors neighbors(int rank) const override;
  const Adjacency& adjacency() const { return adjacency_; }

private:
  Adjacency adjacency_;
};

}  // namespace progsim::mpi::topology
