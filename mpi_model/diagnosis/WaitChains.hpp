// The shape of a deadlock's wait-for graph (the second step of
// diagnose_deadlock): following each blocked rank's first edge gives a
// cycle or a chain that ends at a finished rank; besides, a blocked call may
// wait for a progress chunk of a rank polling in user code (starved), or
// follow from an error of the program (erroneous).
#pragma once

#include "diagnosis/DeadlockViews.hpp"

#include <vector>

namespace progsim::mpi {

struct WaitChains {
  std::vector<int> cycle;               // ranks, in wait order; empty if none
  int ended_at = -1;                    // the finished rank a chain ends at, or -1
  const WaitEdge* starved = nullptr;    // the first wait for a chunk of a polling rank
  const WaitEdge* erroneous = nullptr;  // the first wait caused by an error of the program
};

// The edges pointed to are those of `views`.
WaitChains find_wait_chains(const std::vector<RankView>& views);

}  // namespace progsim::mpi
