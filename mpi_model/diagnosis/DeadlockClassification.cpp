#include "diagnosis/DeadlockClassification.hpp"

#include <algorithm>

namespace progsim::mpi {

namespace {

// A cycle: an unsafe program, a wait the standard leaves to the
// implementation, or a cycle no MPI can complete.
void classify_cycle(const std::vector<RankView>& views, const std::vector<int>& cycle, DeadlockClass& d)
{
  bool bufferable = true;
  std::size_t largest = 0;
  std::string freedom;
  for (int r : cycle) {
    const WaitEdge* e = next_edge(views[static_cast<size_t>(r)]);
    bufferable = bufferable && e->bufferable_send;
    largest = std::max(largest, e->bytes);
    if (freedom.empty())
      freedom = e->freedom;
  }
  if (bufferable) {
    d.name = "needs buffering";
    d.explanation = "an unsafe program (MPI-4.1 §3.5, Example 3.9): each send waits for a receive that its peer "
                    "posts only after its own send. Whether a standard-mode send is buffered is the "
                    "implementation's choice; it completes with an eager threshold >= " +
                    std::to_string(largest) + " bytes (--cfg eager-threshold=" + std::to_string(largest) +
                    ") or with MPI_Sendrecv / nonblocking calls.";
    d.evidence["eager_threshold_that_completes"] = largest;
  } else if (!freedom.empty()) {
    d.name = "depends on an implementation freedom";
    d.explanation = freedom + ". Another correct MPI implementation may complete this program; a portable program "
                              "must not rely on either behaviour (MPI-4.1 §6.14, §2.9).";
    d.evidence["implementation_freedom"] = freedom;
  } else {
    d.name = "incorrect under every MPI";
    d.explanation = "a cycle of blocked non-local calls (MPI-4.1 §2.4.2, §3.4): no MPI implementation, whatever its "
                    "progress or buffering, can complete it.";
  }
}

void classify_starvation(const std::vector<RankView>& views, const WaitEdge& starved, DeadlockClass& d)
{
  const RankView& owner = views[static_cast<size_t>(starved.to)];
  d.name = "needs strong progress";
  d.explanation = "rank " + std::to_string(starved.from) + " waits for a decoupled MPI activity (progress chunk" +
                  (starved.chunk.empty() ? std::string() : " " + starved.chunk) + ") that only rank " +
                  std::to_string(starved.to) + "'s MPI library executes, and rank " + std::to_string(starved.to) +
                  " never calls MPI again: it is " + owner.activity +
                  ". Under weak progress a progress chunk runs only while its owner is inside an MPI procedure; an "
                  "implementation with strong progress (a progress thread, NIC offload) completes the program. "
                  "MPI does not support synchronizing through memory loads and stores. Read MPI-4.1 §2.9 "
                  "\"Progress\" (weak and strong progress, decoupled activities) and Example 12.x in §12.7.3.";
  d.evidence["strong_progress"] = {{"waiting_rank", starved.from},
                                   {"chunk_owner", starved.to},
                                   {"chunk", starved.chunk},
                                   {"owner_activity", owner.activity},
                                   {"owner_polling_since", owner.since},
                                   {"owner_out_of_mpi_since", owner.left_mpi_at}};
}

std::vector<int> ranks_in(const std::vector<RankView>& views, bool (*in)(const RankView&))
{
  std::vector<int> ranks;
  for (const RankView& v : views)
    if (in(v))
      ranks.push_back(v.rank);
  return ranks;
}

}  // namespace

DeadlockClass classify_deadlock(const std::vector<RankView>& views, const WaitChains& chains)
{
  DeadlockClass d;
  std::vector<int> polling = ranks_in(views, [](const RankView& v) { return v.state == RankView::Polling; });
  if (chains.erroneous) {
    d.name = "incorrect under every MPI";
    d.explanation = "the program is erroneous, and the blocked call of rank " + std::to_string(chains.erroneous->from) +
                    " follows from its error: " + chains.erroneous->error +
                    ". No MPI implementation has to complete it, whatever it buffers or synchronizes.";
    d.evidence["error"] = chains.erroneous->error;
  } else if (!chains.cycle.empty()) {
    classify_cycle(views, chains.cycle, d);
  } else if (chains.starved) {
    classify_starvation(views, *chains.starved, d);
  } else if (chains.ended_at >= 0) {
    d.name = "incorrect under every MPI";
    d.explanation = "a blocked call waits for rank " + std::to_string(chains.ended_at) +
                    ", which has finished: the matching call will never be made (MPI-4.1 §3.4).";
    d.evidence["waits_for_finished_rank"] = chains.ended_at;
  } else if (!polling.empty()) {
    std::string who;
    for (int r : polling)
      who += (who.empty() ? "rank " : ", rank ") + std::to_string(r);
    d.name = "memory synchronization";
    d.explanation = who + " busy-waits on memory that nothing can write any more: every other live rank waits "
                          "inside MPI or has finished, and a loop on memory makes no MPI progress. MPI does not "
                          "support synchronizing through memory loads and stores (MPI-4.1 §12.7.3, Example 12.x).";
    d.evidence["polling_ranks"] = polling;
  } else {
    d.name = "incorrect under every MPI";
    d.explanation = "every live rank waits inside MPI for something no other rank will do (MPI-4.1 §2.9).";
  }
  // Held in test loops: whatever the class, a livelock never ends.
  std::vector<int> livelocked =
      ranks_in(views, [](const RankView& v) { return v.state == RankView::Blocked && v.livelocked; });
  if (!livelocked.empty()) {
    std::string who;
    for (int r : livelocked)
      who += (who.empty() ? "" : ", ") + std::to_string(r);
    d.explanation += (livelocked.size() > 1 ? " Ranks " + who + " loop" : " Rank " + who + " loops") +
                     " on test procedures that find nothing while nothing can arrive: a livelock, which never ends "
                     "under any MPI (a test procedure returns at once, MPI-4.1 §3.7.3; it does not wait for a "
                     "message).";
    d.evidence["livelocked_ranks"] = livelocked;
  }
  return d;
}

}  // namespace progsim::mpi
