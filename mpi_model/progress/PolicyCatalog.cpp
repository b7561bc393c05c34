#include "progress/PolicyCatalog.hpp"

#include "sim/Diagnostics.hpp"

namespace progsim::mpi {

const std::vector<PolicyDescription>& policy_catalog()
{
  // MPI-4.1 §2.9 / MPI-5.0 §3.9: who executes decoupled MPI activities.
  static const std::vector<PolicyDescription> catalog = {
      {"weak",
       "call-driven: a rank's progress chunks run only while it is inside an MPI procedure that must "
       "progress (blocked calls, repeated tests, finalization)",
       make_weak_policy},
      {"thread", "a progress thread per rank polls periodically; it costs CPU and shares cores with the rank",
       make_thread_policy},
      {"offload", "the NIC matches and runs protocol steps with its own latency and limited resources",
       make_offload_policy},
      {"ideal", "always progressing reference: every chunk runs as soon as it is enabled, at no CPU cost",
       make_ideal_policy},
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

std::unique_ptr<ProgressPolicy> make_policy(const std::string& name, const ModelParameters& parameters)
{
  check_policy_name(name);
  for (auto& p : policy_catalog())
    if (p.name == name)
      return p.make(parameters);
  return nullptr;
}

}  // namespace progsim::mpi
