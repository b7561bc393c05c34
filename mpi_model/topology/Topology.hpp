// Process topologies (MPI-4.1 chapter 8): the virtual topology attached to
// an intracommunicator. One immutable object per kind; a communicator holds
// it by shared pointer, so MPI_Comm_dup (which keeps the topology, §8.4)
// shares it. The kinds are pure logic (no MPI state): the bindings in
// bindings/Topologies.cpp check arguments and build communicators, the
// neighborhood collectives (NeighborExchange) read neighbors().
#pragma once

#include <memory>
#include <vector>

namespace progsim::mpi::topology {

// The neighbourhood of one process as the neighborhood collectives see it
// (MPI-4.1 §8.6): receive block i comes from sources[i], send block j goes to
// destinations[j]; MPI_PROC_NULL entries (non-periodic Cartesian borders)
// take part in no communication and leave their receive block untouched.
//
// Channels tell apart several edges between the same two processes: the
// message of send block j travels on destination_channels[j] and receive
// block i accepts only source_channels[i], so the k-th block sent on a
// channel lands in the k-th receive block of that channel at the peer
// (non-overtaking). Graphs use one channel; Cartesian grids one per
// direction, so that in a periodic dimension of size 1 or 2 (where both
// neighbours are the same process) the block sent "up" is still received
// as coming from "below". Channels are numbered 0 .. channel_count - 1, and
// channel_count is the same at every process of the topology (it is part of
// the tags of the exchange, TopologyTags.hpp).
struct Neighbors {
  std::vector<int> sources;
  std::vector<int> source_channels;
  std::vector<int> destinations;
  std::vector<int> destination_channels;
  int channel_count = 1;
};

class Topology {
public:
  virtual ~Topology() = default;
  // MPI_CART, MPI_GRAPH or MPI_DIST_GRAPH (MPI_Topo_test).
  virtual int kind() const = 0;
  // The neighbourhood of `rank` (a rank of the communicator).
  virtual Neighbors neighbors(int rank) const = 0;
};

using TopologyPtr = std::shared_ptr<const Topology>;

}  // namespace progsim::mpi::topology
