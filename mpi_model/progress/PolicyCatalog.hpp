// The progress policies a run can select with --progress, what each means,
// and how to make one. Each policy's behaviour lives in its own file.
#pragma once

#include "progress/ProgressPolicy.hpp"

#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi {

struct PolicyDescription {
  std::string name;
  std::string summary;
  std::unique_ptr<ProgressPolicy> (*make)(const ModelParameters&);
};

const std::vector<PolicyDescription>& policy_catalog();
// Throws sim::InputError listing the valid names when `name` is unknown.
void check_policy_name(const std::string& name);
std::unique_ptr<ProgressPolicy> make_policy(const std::string& name, const ModelParameters& parameters);

}  // namespace progsim::mpi
