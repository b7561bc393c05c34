// The neighborhood collectives (MPI-4.1 §8.6-8.8) as a schedule of the
// collectives' engine (coll/Schedule.hpp): one round in which a process
// receives a block from each source and sends one to each destination, all
// in flight at once. The bindings (bindings/NeighborCollectives.cpp) map
// MPI_Neighbor_allgather(v) and alltoall(v) to this alltoallw form and run
// the schedule as every collective does (coll/ScheduleRunner.hpp): blocking
// (the rank waits inside the call and takes part in deadlock detection),
// nonblocking (a request progressed as the policy lets it) or persistent
// (each MPI_Start runs the schedule again). As for every collective, the
// sends follow --cfg coll-sync (MPI-4.1 §6.14: synchronizing or not).
#pragma once

#include "coll/Schedule.hpp"
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

// One process's part of a neighborhood collective: sends[j] goes to
// n.destinations[j], recvs[i] is filled from n.sources[i]; MPI_PROC_NULL
// neighbours are skipped (their receive block stays untouched).
struct NeighborExchange {
  Neighbors n;
  std::vector<SendBlock> sends;
  std::vector<RecvBlock> recvs;
};

// Adds the exchange to `s` on `comm`'s collective context, with the tags of
// `slot` (TopologyTags.hpp). Receives come first, so that a process that is
// its own neighbour (self edges, periodic dimensions of size 1) finds its
// receive posted. Returns MPI_SUCCESS.
int build_neighbor_exchange(coll::Schedule& s, const Communicator& comm, const NeighborExchange& x, int slot);

}  // namespace progsim::mpi::topology
