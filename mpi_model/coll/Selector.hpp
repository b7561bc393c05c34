// Which algorithm a collective uses. By default the choice depends on the
// message size, the process count and whether the operation commutes, as
// MPICH's defaults do (every member computes the same choice from values
// that are equal at all members); --cfg coll-<name>=<algorithm> forces one
// where it applies (an algorithm that does not apply, e.g. ring for a
// non-commutative operation, falls back to the default).
#pragma once

#include <string>
#include <vector>

namespace progsim::sim {
class Config;
}

namespace progsim::mpi::coll {

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

void register_collective_parameters(sim::Config& config, CollectiveParameters& p);
// The parameters of the running model.
const CollectiveParameters& collective_parameters();

}  // namespace progsim::mpi::coll
