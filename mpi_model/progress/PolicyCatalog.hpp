// The progress policies a run can select with --progress, in the order
// help texts, reports and `progsim compare` list them. Each policy's
// behaviour and description live in its own file; adding one is its file
// and one line in PolicyCatalog.cpp (docs/design/progress.md).
#pragma once

#include "progress/PolicyDescription.hpp"

#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi {

using PolicyList = std::vector<const PolicyDescription*>;

const PolicyList& policy_catalog();
// Throws sim::InputError listing the valid names when `name` is unknown.
const PolicyDescription& find_policy(const std::string& name);
void check_policy_name(const std::string& name);
// The names, joined with `separator` ("weak,thread,offload,ideal").
std::string policy_names(const PolicyList& policies, const std::string& separator);

}  // namespace progsim::mpi
