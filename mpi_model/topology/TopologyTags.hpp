// Tags of the topology code's internal messages, on the communicator's
// collective context (context_offset 1, see coll/Collectives.hpp). They stay
// clear of the collectives' small tags, of the intercommunicator local tags
// (coll/Intercomm.hpp, 0x10000000 + tag) and of MPI_Comm_create_group's
// (0x40000000 + tag).
#pragma once

#include <cstdint>

namespace progsim::mpi::topology {

// Neighborhood collectives: kNeighborTagBase + slot * channel_count + channel
// (channels: Topology.hpp), below kNeighborTagBase + kNeighborTagSpan.
// Blocking calls use slot 0: like the blocking collectives' kind tags, their
// messages match in call order (non-overtaking, MPI-4.1 §3.5). Each
// nonblocking or persistent call takes the slot of its position among the
// communicator's collectives (the same at every member), so that several in
// flight at once never take each other's messages, as the collectives'
// schedule tags do (coll/Collectives.hpp).
constexpr int kNeighborTagBase = 0x20000000;
constexpr int kNeighborTagSpan = 0x10000000;

inline int neighbor_slot(std::uint64_t call_index, int channel_count)
{
  int slots = kNeighborTagSpan / (channel_count > 0 ? channel_count : 1);
  if (slots < 2)
    return 0;
  return 1 + static_cast<int>(call_index % static_cast<std::uint64_t>(slots - 1));
}

inline int neighbor_tag(int slot, int channel_count, int channel)
{
  return kNeighborTagBase + slot * channel_count + channel;
}

// MPI_Dist_graph_create's edge exchange.
constexpr int kDistGraphEdgesTag = 0x30000000;

}  // namespace progsim::mpi::topology
