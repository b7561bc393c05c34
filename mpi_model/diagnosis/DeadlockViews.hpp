// What each rank is doing at a deadlock (the first step of
// diagnose_deadlock): finished, polling watched memory in user code, or
// blocked in an MPI call (or held in a loop of test calls) with the
// wait-for edges the model's WaitForSources give.
#pragma once

#include "diagnosis/DeadlockDiagnosis.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace progsim::mpi {

struct RankView {
  enum { Finished, Polling, Blocked } state = Blocked;
  int rank = 0;
  double finish_time = 0;  // Finished
  // Polling: a busy-wait loop on watched memory, outside MPI.
  std::string watch;       // the watched range's description
  std::size_t offset = 0;  // of the polled address in it
  std::string activity;    // "polling watched memory 'ack' at main (x.c:31) in user code since t=..."
  double left_mpi_at = 0;  // when its last MPI call returned
  // Blocked (or held in a test loop): the call, where it was made, its waits.
  std::string call;
  bool livelocked = false;      // held in a loop of test calls that find nothing
  std::uint64_t tests_in_a_row = 0;
  std::vector<WaitEdge> edges;  // empty: it waits for its own pending activities (own_pending)
  std::string own_pending;
  // Polling and blocked ranks.
  double since = 0;          // polling since / blocked since / test loop since
  std::string source;        // "main (x.c:31)", "" when unknown
  std::string last_call;
};

std::vector<RankView> build_rank_views(const ProgressEngine& progress, const std::vector<const WaitForSource*>& sources,
                                       const std::string& program);

// The first edge of a view to a specific rank: the one a chain follows.
const WaitEdge* next_edge(const RankView& view);

}  // namespace progsim::mpi
