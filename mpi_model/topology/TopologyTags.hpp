// Tags of the topology code's internal messages, on the communicator's
// collective context (context_offset 1, see coll/Collectives.hpp). They stay
// clear of the collectives' small tags, of the intercommunicator local tags
// (coll/Intercomm.hpp, 0x10000000 + tag) and of MPI_Comm_create_group's
// (0x40000000 + tag).
#pragma once

namespace progsim::mpi::topology {

// Neighborhood collectives: kNeighborTagBase + channel (see Topology.hpp).
constexpr int kNeighborTagBase = 0x20000000;
// MPI_Dist_graph_create's edge exchange.
constexpr int kDistGraphEdgesTag = 0x30000000;

}  // namespace progsim::mpi::topology
