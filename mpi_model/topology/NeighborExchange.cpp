#include "topology/NeighborExchange.hpp"

#include "topology/TopologyTags.hpp"

#include <mpi.h>

namespace progsim::mpi::topology {

int build_neighbor_exchange(coll::Schedule& s, const Communicator& comm, const NeighborExchange& x, int slot)
{
  const Neighbors& n = x.n;
  auto on_channel = [&](int channel) {
    return coll::Channel{&comm, neighbor_tag(slot, n.channel_count, channel)};
  };
  for (std::size_t i = 0; i < n.sources.size(); ++i)
    if (n.sources[i] != MPI_PROC_NULL)
      s.recv(on_channel(n.source_channels[i]), n.sources[i], x.recvs[i].buf, x.recvs[i].count, x.recvs[i].type);
  for (std::size_t j = 0; j < n.destinations.size(); ++j)
    if (n.destinations[j] != MPI_PROC_NULL)
      s.send(on_channel(n.destination_channels[j]), n.destinations[j], x.sends[j].buf, x.sends[j].count,
             x.sends[j].type);
  // Each message is one portion of the program's, matched with the
  // neighbor's portion on its channel: checked as point-to-point (§8.6).
  for (coll::Round& round : s.rounds())
    for (coll::MessageStep& m : round.messages)
      m.check_types = true;
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::topology
