// A deadlock's explanation for the terminal and for the report (the last
// step of diagnose_deadlock): each rank's state and waits, the cycle, the
// class and why.
#pragma once

#include "diagnosis/DeadlockClassification.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::mpi {

std::string render_deadlock_text(const std::vector<RankView>& views, const WaitChains& chains,
                                 const DeadlockClass& cls);
nlohmann::ordered_json render_deadlock_json(const std::vector<RankView>& views, const WaitChains& chains,
                                            const DeadlockClass& cls);

}  // namespace progsim::mpi
