// The progress policies a run can select with --progress, and what each
// means. The behaviour of each policy lives in its own file under progress/.
#pragma once

#include <string>
#include <vector>

namespace progsim::mpi {

struct PolicyDescription {
  std::string name;
  std::string summary;
};

const std::vector<PolicyDescription>& policy_catalog();
// Throws sim::InputError listing the valid names when `name` is unknown.
void check_policy_name(const std::string& name);

}  // namespace progsim::mpi
