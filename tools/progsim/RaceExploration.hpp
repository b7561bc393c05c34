// progsim check's exploration of message races (docs/design/message-races.md):
// from the decisions a run recorded (its report's message_races, written
// under --cfg match-record=yes), the runs that make one decision otherwise.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::cli {

// One run to make: `policy` with --cfg match-schedule=`schedule`.
struct RaceBranch {
  std::string policy;
  std::string schedule;  // every decision before the one changed, as it was made, then the changed one
  std::string label;     // "rank 0 #1 <- 2": the table's name of it
  // "rank 0's decision 1, MPI_Recv at main (race.c:23): rank 2's message instead of rank 1's"
  std::string description;
  // What a finding only this run shows is due to: "rank 0's MPI_Recv at main
  // (race.c:23) took rank 1's message in the weak run; taking rank 2's
  // instead leads to this".
  std::string race;
};

// The alternatives of `report`'s decisions that its own schedule did not
// force, each as a run, in depth-first order (earliest decision first, its
// alternatives by source, index or set of indices). `run`: how the table
// names the report's run ("weak"). Nothing when the report recorded no
// decision.
std::vector<RaceBranch> race_branches(const nlohmann::json& report, const std::string& policy, const std::string& run);

// Whether the report's run could not honour its schedule, and why.
bool race_infeasible(const nlohmann::json& report, std::string& why);

}  // namespace progsim::cli
