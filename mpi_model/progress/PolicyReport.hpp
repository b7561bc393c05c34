// What the progress policies of a catalogue add to reports, and how
// `progsim compare` and the HTML timeline show it: read from their
// descriptions, so that no report or tool names a policy.
#pragma once

#include "progress/PolicyCatalog.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace progsim::mpi {

class ProgressEngine;

// Writes the policy part of `rank`'s report entry: "chunks" (how many each
// executor of `policies` ran, then the policies' chunk counters), then the
// policies' other counters. Every entry has the fields of every policy of
// `policies`, 0 under the others, so that reports of all policies have the
// same shape (compare adds them up); within "chunks" and after it, policy
// counters go in name order, so that the layout does not depend on the
// order of the catalogue.
void add_policy_fields_to_rank(const PolicyList& policies, const ProgressEngine& engine, int rank,
                               nlohmann::ordered_json& entry);

// The rank, then the agent of each policy of `policies` that has one.
std::vector<const ExecutorDescription*> executors(const PolicyList& policies);

// The counters of `policies` that are columns of `progsim compare`, in
// catalogue order.
std::vector<const ReportField*> compare_columns(const PolicyList& policies);

}  // namespace progsim::mpi
