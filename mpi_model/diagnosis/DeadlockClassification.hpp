// The class of a deadlock and why (the third step of diagnose_deadlock;
// the classes are listed in DeadlockDiagnosis.hpp).
#pragma once

#include "diagnosis/WaitChains.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::mpi {

struct DeadlockClass {
  std::string name;         // "needs buffering", "incorrect under every MPI"...
  std::string explanation;  // the verdict, with the sections of the standard to read
  // The class's evidence for the report ("eager_threshold_that_completes",
  // "polling_ranks", "livelocked_ranks"...), in report order.
  nlohmann::ordered_json evidence;
};

DeadlockClass classify_deadlock(const std::vector<RankView>& views, const WaitChains& chains);

}  // namespace progsim::mpi
