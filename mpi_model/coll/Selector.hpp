// Which algorithm a collective uses (the rows of Registry.hpp). By default
// auto's preference: by message size, process count and whether the
// operation commutes, as MPICH's defaults do (every member computes the
// same choice from values that are equal at all members); --cfg
// coll-<name>=<algorithm> forces one. A forced algorithm that does not apply
// to a call of the program (ring for a non-commutative operation) ends the
// run as a configuration error rather than measuring another algorithm.
#pragma once

#include "coll/Registry.hpp"

#include <cstddef>
#include <string>

namespace progsim::sim {
class Config;
}

namespace progsim::mpi::coll {

struct Channel;

struct CollectiveParameters {
  // Implementation freedom (MPI-4.1 §6.14): whether collectives synchronize
  // their members. auto: as the messages' protocols imply (eager messages
  // do not wait for the receiver); always: every internal message waits for
  // its receiver; never: the library buffers every internal message.
  std::string sync = "auto";
  std::string barrier = "auto";
  std::string bcast = "auto";
  std::string reduce = "auto";
  std::string allreduce = "auto";
  std::string gather = "auto";
  std::string scatter = "auto";
  std::string allgather = "auto";
  std::string alltoall = "auto";
  std::string reduce_scatter = "auto";
  std::string scan = "auto";
};

// coll-sync and one coll-<name> per collective of the registry.
void register_collective_parameters(sim::Config& config, CollectiveParameters& p);
// The parameters of the running model.
const CollectiveParameters& collective_parameters();

// The index in coll.algorithms of the algorithm of a call: the forced one,
// or auto's preference. A forced algorithm that does not apply ends the run
// (outcome aborted, exit status 2) with an error naming the rank, the MPI
// call and its source line, the algorithm and why; for the library's own
// collectives (c.for_library: communicator constructors, fences) auto's
// preference replaces it.
std::size_t choose(const CollectiveAlgorithms& coll, const CallFacts& facts, const Channel& c);

}  // namespace progsim::mpi::coll
