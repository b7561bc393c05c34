// The blocking neighborhood collectives (MPI-4.1 §8.6) as one exchange over
// the model's internal point-to-point messages (coll/P2P.cpp): every
// process posts a receive per source and a send per destination, then waits
// for all of them through Binding::wait, so that a rank blocked in a
// neighborhood collective takes part in deadlock detection and is named in
// the explanation. MPI_Neighbor_allgather(v) and alltoall(v) are mapped to
// the alltoallw form by the bindings (bindings/NeighborCollectives.cpp).
#pragma once

#include "coll/Collectives.hpp"
#include "topology/Topology.hpp"

#include <cstdint>
#include <vector>

namespace progsim::mpi::topology {

struct SendBlock {
  const void* buf;
  std::int64_t count;
  MPI_Datatype type;
};

struct RecvBlock {
  void* buf;
  std::int64_t count;
  MPI_Datatype type;
};

// Starts the exchange: sends[j] goes to n.destinations[j], recvs[i] is
// filled from n.sources[i]; MPI_PROC_NULL neighbours are skipped. `b` and
// `comm` as in a CollCall (the tag is chosen per channel). Returns the
// started internal requests (receives first).
std::vector<RequestPtr> start_neighbor_exchange(const Binding& b, const Communicator& comm, const Neighbors& n,
                                                const std::vector<SendBlock>& sends,
                                                const std::vector<RecvBlock>& recvs);

// The blocking form: starts the exchange and waits for it. Returns
// MPI_SUCCESS or the first error class (MPI_ERR_TRUNCATE when a neighbour
// sent more than its block holds).
int neighbor_alltoallw(const Binding& b, const Communicator& comm, const Neighbors& n,
                       const std::vector<SendBlock>& sends, const std::vector<RecvBlock>& recvs);

// The nonblocking forms (MPI-4.1 §8.7): one request whose parts are the
// exchange's messages. The messages are independent of each other (no step
// waits for another), so the request needs no schedule: it progresses as its
// point-to-point parts do under the progress policy, and completes when all
// have, with the first error among them.
RequestPtr neighbor_request(const Binding& b, const Communicator& comm, std::vector<RequestPtr> parts);

}  // namespace progsim::mpi::topology
