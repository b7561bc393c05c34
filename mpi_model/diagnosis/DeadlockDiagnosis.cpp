#include "diagnosis/DeadlockDiagnosis.hpp"

#include "progress/ProgressEngine.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Rank.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <algorithm>
#include <map>

namespace progsim::mpi {

const char* to_string(WaitKind kind)
{
  switch (kind) {
    case WaitKind::MatchingCall: return "matching call";
    case WaitKind::ProgressChunk: return "progress chunk";
    case WaitKind::CollectivePartner: return "collective partner";
    case WaitKind::Memory: return "memory";
    case WaitKind::Own: return "own";
  }
  return "?";
}

namespace {

// What each rank is doing at the deadlock.
struct RankView {
  enum { Finished, Polling, Blocked } state = Blocked;
  std::vector<WaitEdge> edges;
  std::string activity;  // "polling watched memory 'ack' at main (x.c:31) since t=..."
  double since = 0;
  double left_mpi_at = 0;  // polling ranks: when their last MPI call returned
};

std::string at_location(std::uintptr_t pc, const std::string& program)
{
  std::string where = sim::memory::describe_program_location(pc, program);
  return where.empty() ? "" : " at " + where;
}

// The first edge of `r` to a specific rank: the one the chain follows.
const WaitEdge* next_edge(const RankView& view)
{
  for (const WaitEdge& e : view.edges)
    if (e.to >= 0)
      return &e;
  return nullptr;
}

}  // namespace

DeadlockDiagnosis diagnose_deadlock(const ProgressEngine& progress, const std::vector<const WaitForSource*>& sources,
                                    const std::string& program)
{
  DeadlockDiagnosis d;
  const int n = progress.size();
  std::vector<RankView> views(static_cast<size_t>(n));
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  std::string text;
  std::vector<int> polling;
  std::vector<int> livelocked;  // held in a loop of test calls
  for (int r = 0; r < n; ++r) {
    RankView& view = views[static_cast<size_t>(r)];
    const RankProgress& rp = const_cast<ProgressEngine&>(progress).rank(r);
    const sim::Rank& rank = rp.sim_rank();
    nlohmann::ordered_json entry;
    entry["rank"] = r;
    if (rank.state() == sim::RankState::Finished || rank.state() == sim::RankState::Failed) {
      view.state = RankView::Finished;
      entry["state"] = "finished";
      entry["finish_time"] = rank.finish_time;
      text += "\n  rank " + std::to_string(r) + ": finished at " + sim::format_time(rank.finish_time);
      ranks.push_back(entry);
      continue;
    }
    if (const sim::memory::PollInfo* poll = sim::memory::MemoryWatch::instance().poll_info(r)) {
      // A busy-wait loop on memory: it waits for a write by anyone, outside MPI.
      view.state = RankView::Polling;
      view.since = poll->since;
      view.left_mpi_at = rank.left_mpi_at;
      polling.push_back(r);
      std::string where = at_location(poll->pc, program);
      std::string what = "a write to '" + poll->description + "' by another rank or an RMA operation";
      view.activity = "polling watched memory '" + poll->description + "'" + where + " in user code since " +
                      sim::format_time(poll->since) + ", out of MPI since its last MPI call (" + rank.last_call() +
                      ") returned at " + sim::format_time(rank.left_mpi_at);
      entry["state"] = "polling";
      entry["watch"] = poll->description;
      entry["offset"] = poll->offset;
      entry["polling_since"] = poll->since;
      entry["source"] = sim::memory::describe_program_location(poll->pc, program);
      entry["last_call"] = rank.last_call();
      entry["waits_for"] = nlohmann::ordered_json::array(
          {{{"rank", "any"}, {"kind", to_string(WaitKind::Memory)}, {"what", what}}});
      text += "\n  rank " + std::to_string(r) + ": polling watched memory '" + poll->description + "' at offset " +
              std::to_string(poll->offset) + " since " + sim::format_time(poll->since) + where +
              " (a busy-wait loop in user code, outside MPI)\n      waits for " + what;
      ranks.push_back(entry);
      continue;
    }
    for (const WaitForSource* source : sources)
      source->wait_edges(r, view.edges);
    view.since = rp.waiting_since();
    entry["call"] = rp.waiting_for();
    entry["source"] = sim::memory::describe_program_location(rp.call_site(), program);
    entry["last_call"] = rank.last_call();
    if (rp.held_in_test()) {
      // A loop of test calls that find nothing (a livelock): held in its
      // last one, like a blocked call (RankProgress::hold_test).
      livelocked.push_back(r);
      entry["state"] = "polling";
      entry["polling_since"] = rp.test_loop_since();
      entry["tests_in_a_row"] = rp.tests_in_a_row();
      text += "\n  rank " + std::to_string(r) + ": polls " + rp.waiting_for() + at_location(rp.call_site(), program) +
              " since " + sim::format_time(rp.test_loop_since()) + " (" + std::to_string(rp.tests_in_a_row()) +
              " test calls in a row found nothing and nothing can arrive: a livelock)";
    } else {
      entry["state"] = "blocked";
      entry["blocked_since"] = rp.waiting_since();
      text += "\n  rank " + std::to_string(r) + ": blocked since " + sim::format_time(rp.waiting_since()) + " in " +
              rp.waiting_for() + at_location(rp.call_site(), program) + " (a blocked non-local call)";
    }
    nlohmann::ordered_json waits = nlohmann::ordered_json::array();
    for (const WaitEdge& e : view.edges) {
      text += "\n      waits for " + e.waits_for;
      nlohmann::ordered_json w = {{"rank", e.to >= 0 ? nlohmann::ordered_json(e.to) : nlohmann::ordered_json("any")},
                                  {"kind", to_string(e.kind)},
                                  {"what", e.waits_for}};
      if (!e.chunk.empty())
        w["chunk"] = e.chunk;
      if (!e.freedom.empty())
        w["implementation_freedom"] = e.freedom;
      if (!e.error.empty())
        w["error"] = e.error;
      waits.push_back(w);
    }
    if (view.edges.empty()) {
      std::string own;
      for (const WaitForSource* source : sources)
        if (own.empty())
          own = source->pending(r);
      text += "\n      waits for its own pending activities: " + own;
      waits.push_back({{"rank", r}, {"kind", to_string(WaitKind::Own)}, {"what", own}});
    }
    entry["waits_for"] = waits;
    ranks.push_back(entry);
  }

  auto is = [&](int r, auto state) { return r >= 0 && views[static_cast<size_t>(r)].state == state; };
  // Follow the chain of first edges from each blocked rank.
  std::vector<int> cycle;
  int ended_at = -1;
  for (int start = 0; start < n && cycle.empty() && ended_at < 0; ++start) {
    if (!is(start, RankView::Blocked) || !next_edge(views[static_cast<size_t>(start)]))
      continue;
    std::vector<int> path;
    std::map<int, size_t> position;
    int r = start;
    while (is(r, RankView::Blocked) && !position.count(r)) {
      position[r] = path.size();
      path.push_back(r);
      const WaitEdge* e = next_edge(views[static_cast<size_t>(r)]);
      r = e ? e->to : -1;
    }
    if (r >= 0 && position.count(r))
      cycle.assign(path.begin() + static_cast<long>(position[r]), path.end());
    else if (is(r, RankView::Finished))
      ended_at = r;
  }
  // A blocked call waiting for a chunk of a rank that stays in user code.
  const WaitEdge* starved = nullptr;
  for (int r = 0; r < n && !starved; ++r)
    for (const WaitEdge& e : views[static_cast<size_t>(r)].edges)
      if (e.kind == WaitKind::ProgressChunk && is(r, RankView::Blocked) && is(e.to, RankView::Polling) && !starved)
        starved = &e;

  // A wait caused by an error of the program: whatever the implementation
  // freedoms, the program is incorrect.
  const WaitEdge* erroneous = nullptr;
  for (int r = 0; r < n && !erroneous; ++r)
    for (const WaitEdge& e : views[static_cast<size_t>(r)].edges)
      if (!e.error.empty() && is(r, RankView::Blocked) && !erroneous)
        erroneous = &e;

  std::string verdict;
  nlohmann::ordered_json cycle_json = nlohmann::ordered_json::array();
  for (int r : cycle)
    cycle_json.push_back(r);
  if (!cycle.empty()) {
    std::string chain;
    for (int r : cycle)
      chain += "rank " + std::to_string(r) + " -> ";
    text += "\n  cycle: " + chain + "rank " + std::to_string(cycle.front());
  }
  if (erroneous) {
    d.classification = "incorrect under every MPI";
    verdict = "the program is erroneous, and the blocked call of rank " + std::to_string(erroneous->from) +
              " follows from its error: " + erroneous->error +
              ". No MPI implementation has to complete it, whatever it buffers or synchronizes.";
    d.json["error"] = erroneous->error;
  } else if (!cycle.empty()) {
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
      d.classification = "needs buffering";
      verdict = "an unsafe program (MPI-4.1 §3.5, Example 3.9): each send waits for a receive that its peer posts "
                "only after its own send. Whether a standard-mode send is buffered is the implementation's choice; "
                "it completes with an eager threshold >= " +
                std::to_string(largest) + " bytes (--cfg eager-threshold=" + std::to_string(largest) +
                ") or with MPI_Sendrecv / nonblocking calls.";
      d.json["eager_threshold_that_completes"] = largest;
    } else if (!freedom.empty()) {
      d.classification = "depends on an implementation freedom";
      verdict = freedom + ". Another correct MPI implementation may complete this program; a portable program "
                          "must not rely on either behaviour (MPI-4.1 §6.14, §2.9).";
      d.json["implementation_freedom"] = freedom;
    } else {
      d.classification = "incorrect under every MPI";
      verdict = "a cycle of blocked non-local calls (MPI-4.1 §2.4.2, §3.4): no MPI implementation, whatever its "
                "progress or buffering, can complete it.";
    }
  } else if (starved) {
    const RankView& owner = views[static_cast<size_t>(starved->to)];
    d.classification = "needs strong progress";
    verdict = "rank " + std::to_string(starved->from) + " waits for a decoupled MPI activity (progress chunk" +
              (starved->chunk.empty() ? std::string() : " " + starved->chunk) + ") that only rank " +
              std::to_string(starved->to) + "'s MPI library executes, and rank " + std::to_string(starved->to) +
              " never calls MPI again: it is " + owner.activity +
              ". Under weak progress a progress chunk runs only while its owner is inside an MPI procedure; an "
              "implementation with strong progress (a progress thread, NIC offload) completes the program. "
              "MPI does not support synchronizing through memory loads and stores. Read MPI-4.1 §2.9 \"Progress\" "
              "(weak and strong progress, decoupled activities) and Example 12.x in §12.7.3.";
    d.json["strong_progress"] = {{"waiting_rank", starved->from},
                                 {"chunk_owner", starved->to},
                                 {"chunk", starved->chunk},
                                 {"owner_activity", owner.activity},
                                 {"owner_polling_since", owner.since},
                                 {"owner_out_of_mpi_since", views[static_cast<size_t>(starved->to)].left_mpi_at}};
  } else if (ended_at >= 0) {
    d.classification = "incorrect under every MPI";
    verdict = "a blocked call waits for rank " + std::to_string(ended_at) +
              ", which has finished: the matching call will never be made (MPI-4.1 §3.4).";
    d.json["waits_for_finished_rank"] = ended_at;
  } else if (!polling.empty()) {
    std::string who;
    for (int r : polling)
      who += (who.empty() ? "rank " : ", rank ") + std::to_string(r);
    d.classification = "memory synchronization";
    verdict = who + " busy-waits on memory that nothing can write any more: every other live rank waits inside "
                    "MPI or has finished, and a loop on memory makes no MPI progress. MPI does not support "
                    "synchronizing through memory loads and stores (MPI-4.1 §12.7.3, Example 12.x).";
    d.json["polling_ranks"] = polling;
  } else {
    d.classification = "incorrect under every MPI";
    verdict = "every live rank waits inside MPI for something no other rank will do (MPI-4.1 §2.9).";
  }
  if (!livelocked.empty()) {
    std::string who;
    for (int r : livelocked)
      who += (who.empty() ? "" : ", ") + std::to_string(r);
    verdict += (livelocked.size() > 1 ? " Ranks " + who + " loop" : " Rank " + who + " loops") +
               " on test procedures that find nothing while nothing can arrive: a livelock, which never ends under "
               "any MPI (a test procedure returns at once, MPI-4.1 §3.7.3; it does not wait for a message).";
    d.json["livelocked_ranks"] = livelocked;
  }
  text += "\n  class: " + d.classification + " - " + verdict;
  d.text = text;
  d.json["class"] = d.classification;
  d.json["explanation"] = verdict;
  d.json["cycle"] = cycle_json;
  d.json["ranks"] = ranks;
  return d;
}

}  // namespace progsim::mpi
