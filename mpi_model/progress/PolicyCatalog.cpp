#include "progress/PolicyCatalog.hpp"

#include "sim/Diagnostics.hpp"

namespace progsim::mpi {

// Each in its policy's file.
const PolicyDescription& weak_policy();
const PolicyDescription& thread_policy();
const PolicyDescription& offload_policy();
const PolicyDescription& ideal_policy();

const PolicyList& policy_catalog()
{
  // MPI-4.1 §2.9 / MPI-5.0 §3.9: who executes decoupled MPI activities.
  static const PolicyList catalog = {
      &weak_policy(),
      &thread_policy(),
      &offload_policy(),
      &ideal_policy(),
  };
  return catalog;
}

const PolicyDescription& find_policy(const std::string& name)
{
  for (const PolicyDescription* p : policy_catalog())
    if (p->name == name)
      return *p;
  throw sim::InputError{"unknown progress policy '" + name + "' (expected one of: " +
                        policy_names(policy_catalog(), ", ") + ")"};
}

void check_policy_name(const std::string& name)
{
  find_policy(name);
}

std::string policy_names(const PolicyList& policies, const std::string& separator)
{
  std::string names;
  for (const PolicyDescription* p : policies)
    names += (names.empty() ? "" : separator) + p->name;
  return names;
}

}  // namespace progsim::mpi
