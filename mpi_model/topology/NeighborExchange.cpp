#include "topology/NeighborExchange.hpp"

#include "topology/TopologyTags.hpp"

#include <mpi.h>

namespace progsim::mpi::topology {

int neighbor_alltoallw(const Binding& b, const Communicator& comm, const Neighbors& n,
                       const std::vector<SendBlock>& sends, const std::vector<RecvBlock>& recvs)
{
  auto on_channel = [&](int channel) { return coll::CollCall{b, comm, kNeighborTagBase + channel}; };
  std::vector<RequestPtr> requests;
  // Receives first: a process that is its own neighbour (self edges,
  // periodic dimensions of size 1) finds its receive posted.
  for (std::size_t i = 0; i < n.sources.size(); ++i) {
    if (n.sources[i] == MPI_PROC_NULL)
      continue;
    requests.push_back(
        coll::irecv(on_channel(n.source_channels[i]), n.sources[i], recvs[i].buf, recvs[i].count, recvs[i].type));
  }
  for (std::size_t j = 0; j < n.destinations.size(); ++j) {
    if (n.destinations[j] == MPI_PROC_NULL)
      continue;
    requests.push_back(coll::isend(on_channel(n.destination_channels[j]), n.destinations[j], sends[j].buf,
                                   sends[j].count, sends[j].type));
  }
  return coll::wait_all(on_channel(0), requests);
}

}  // namespace progsim::mpi::topology
