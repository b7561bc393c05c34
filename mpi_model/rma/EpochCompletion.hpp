// Helpers of the epoch implementations only (FenceEpoch.cpp, PscwEpochs.cpp,
// PassiveTargetEpochs.cpp); the rest is in rma/Epochs.hpp.
#pragma once

#include "core/Group.hpp"
#include "rma/Window.hpp"

#include <string>
#include <vector>

namespace progsim::mpi::rma {

// The local ranks in the window's group of the members of `group`.
std::vector<int> local_ranks(const Window& w, const Group& group);
// "0, 3": world ranks of local ranks, for reports.
std::string rank_list(const Window& w, const std::vector<int>& locals);

}  // namespace progsim::mpi::rma
