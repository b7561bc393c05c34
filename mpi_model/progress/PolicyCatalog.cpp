#include "progress/PolicyCatalog.hpp"

#include "sim/Diagnostics.hpp"

namespace progsim::mpi {

const std::vector<PolicyDescription>& policy_catalog()
{
  // MPI-4.1 §2.9 / MPI-5.0 §3.9: who executes decoupled MPI activities.
  static const std::vector<PolicyDescription> catalog = {
      {"weak", "call-driven: a rank's progress chunks run only while it is inside an MPI procedure that must "
               "progress (blocked calls, repeated tests, finalization)"},
      {"thread", "a progress thread per rank polls periodically; it costs CPU and shares cores with the rank"},
      {"offload", "the NIC matches and runs protocol steps with its own latency and limited resources"},
      {"ideal", "always progressing reference: every chunk runs as soon as it is enabled, at no CPU cost"},
  };
  return catalog;
}

void check_policy_name(const std::string& name)
{
  std::string names;
  for (auto& p : policy_catalog()) {
    if (p.name == name)
      return;
    names += (names.empty() ? "" : ", ") + p.name;
  }
  throw sim::InputError{"unknown progress policy '" + name + "' (expected one of: " + names + ")"};
}

}  // namespace progsim::mpi
