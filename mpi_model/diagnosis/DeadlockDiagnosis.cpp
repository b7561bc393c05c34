#include "diagnosis/DeadlockDiagnosis.hpp"

#include "p2p/PointToPoint.hpp"
#include "progress/ProgressEngine.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Rank.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <algorithm>
#include <map>

namespace progsim::mpi {

namespace {

std::string rank_text(int world)
{
  return world < 0 ? "any rank" : "rank " + std::to_string(world);
}

// The wait-for edges of one incomplete request of a blocked rank.
void edges_of(const Request& r, const PointToPoint& p2p, std::vector<WaitEdge>& edges)
{
  if (r.complete())
    return;
  if (!r.parts.empty()) {
    for (auto& part : r.parts)
      edges_of(*part, p2p, edges);
    return;
  }
  WaitEdge e;
  e.from = r.owner;
  bool internal = r.context_id != r.comm_context;
  if (r.kind == RequestKind::Generalized) {
    // Only the program completes it, and this rank is blocked.
    e.to = r.owner;
    e.waits_for = "its own MPI_Grequest_complete";
  } else if (r.kind == RequestKind::Recv) {
    e.to = r.peer_world;
    if (r.state == RequestState::WaitingForData)
      e.waits_for = "the data of " + rank_text(e.to) + "'s matched rendezvous send (a progress chunk of " +
                    rank_text(e.to) + ")";
    else if (internal)
      e.waits_for = rank_text(e.to) + " to take part in " + r.call + " (a collective partner)";
    else
      e.waits_for = "a matching send from " + rank_text(e.to) + " (tag " +
                    (r.tag == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(r.tag)) + ")";
  } else {
    e.to = r.peer_world;
    e.bytes = r.bytes;
    if (p2p.is_unmatched_at_target(r)) {
      e.waits_for = "a matching receive on " + rank_text(e.to);
      if (r.protocol == Protocol::RendezvousPush || r.protocol == Protocol::RendezvousPull)
        e.waits_for += " (its RTS of " + std::to_string(r.bytes) + " B is unmatched there)";
      e.bufferable_send = (r.mode == SendMode::Standard || r.mode == SendMode::Ready) &&
                          (r.protocol == Protocol::RendezvousPush || r.protocol == Protocol::RendezvousPull);
    } else if (internal) {
      e.waits_for = rank_text(e.to) + " to take part in " + r.call + " (a collective partner)";
    } else {
      e.waits_for = rank_text(e.to) + " to complete the " + to_string(r.protocol) + " handshake (" +
                    to_string(r.state) + ")";
    }
  }
  edges.push_back(e);
}

}  // namespace

DeadlockDiagnosis diagnose_deadlock(const ProgressEngine& progress, const PointToPoint& p2p)
{
  DeadlockDiagnosis d;
  const int n = progress.size();
  std::vector<std::vector<WaitEdge>> edges(static_cast<size_t>(n));
  std::vector<bool> finished(static_cast<size_t>(n), false);
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  std::string text;
  std::vector<int> polling;
  for (int r = 0; r < n; ++r) {
    const RankProgress& rp = const_cast<ProgressEngine&>(progress).rank(r);
    const sim::Rank& rank = rp.sim_rank();
    nlohmann::ordered_json entry;
    entry["rank"] = r;
    if (rank.state() == sim::RankState::Finished || rank.state() == sim::RankState::Failed) {
      finished[static_cast<size_t>(r)] = true;
      entry["state"] = "finished";
      entry["finish_time"] = rank.finish_time;
      text += "\n  rank " + std::to_string(r) + ": finished at " + sim::format_time(rank.finish_time);
      ranks.push_back(entry);
      continue;
    }
    if (const sim::memory::PollInfo* poll = sim::memory::MemoryWatch::instance().poll_info(r)) {
      // A busy-wait loop on memory: it waits for a write by anyone, outside MPI.
      polling.push_back(r);
      std::string what = "a write to '" + poll->description + "' by another rank or an RMA operation";
      entry["state"] = "polling";
      entry["watch"] = poll->description;
      entry["offset"] = poll->offset;
      entry["polling_since"] = poll->since;
      entry["last_call"] = rank.last_call();
      entry["waits_for"] = nlohmann::ordered_json::array({{{"rank", "any"}, {"what", what}}});
      text += "\n  rank " + std::to_string(r) + ": polling watched memory '" + poll->description + "' at offset " +
              std::to_string(poll->offset) + " since " + sim::format_time(poll->since) +
              " (a busy-wait loop in user code, outside MPI)\n      waits for " + what;
      ranks.push_back(entry);
      continue;
    }
    for (const RequestPtr& req : p2p.waited(r))
      edges_of(*req, p2p, edges[static_cast<size_t>(r)]);
    entry["state"] = "blocked";
    entry["call"] = rp.waiting_for();
    entry["blocked_since"] = rp.waiting_since();
    entry["last_call"] = rank.last_call();
    text += "\n  rank " + std::to_string(r) + ": blocked since " + sim::format_time(rp.waiting_since()) + " in " +
            rp.waiting_for() + " (a blocked non-local call)";
    nlohmann::ordered_json waits = nlohmann::ordered_json::array();
    for (const WaitEdge& e : edges[static_cast<size_t>(r)]) {
      text += "\n      waits for " + e.waits_for;
      waits.push_back({{"rank", e.to >= 0 ? nlohmann::ordered_json(e.to) : nlohmann::ordered_json("any")},
                       {"what", e.waits_for}});
    }
    if (edges[static_cast<size_t>(r)].empty()) {
      std::string own = p2p.explain(r);
      text += "\n      waits for its own pending activities: " + own;
      waits.push_back({{"rank", r}, {"what", own}});
    }
    entry["waits_for"] = waits;
    ranks.push_back(entry);
  }

  // Follow the first edge to a specific rank from each blocked rank.
  auto next = [&](int r) -> const WaitEdge* {
    for (const WaitEdge& e : edges[static_cast<size_t>(r)])
      if (e.to >= 0)
        return &e;
    return nullptr;
  };
  std::vector<int> cycle;
  int ended_at = -1;
  for (int start = 0; start < n && cycle.empty() && ended_at < 0; ++start) {
    if (finished[static_cast<size_t>(start)] || !next(start))
      continue;
    std::vector<int> path;
    std::map<int, size_t> position;
    int r = start;
    while (r >= 0 && !finished[static_cast<size_t>(r)] && !position.count(r)) {
      position[r] = path.size();
      path.push_back(r);
      const WaitEdge* e = next(r);
      r = e ? e->to : -1;
    }
    if (r >= 0 && position.count(r))
      cycle.assign(path.begin() + static_cast<long>(position[r]), path.end());
    else if (r >= 0 && finished[static_cast<size_t>(r)])
      ended_at = r;
  }

  std::string verdict;
  nlohmann::ordered_json cycle_json = nlohmann::ordered_json::array();
  if (!cycle.empty()) {
    bool bufferable = true;
    std::size_t largest = 0;
    std::string chain;
    for (int r : cycle) {
      const WaitEdge* e = next(r);
      bufferable = bufferable && e->bufferable_send;
      largest = std::max(largest, e->bytes);
      chain += "rank " + std::to_string(r) + " -> ";
      cycle_json.push_back(r);
    }
    chain += "rank " + std::to_string(cycle.front());
    text += "\n  cycle: " + chain;
    if (bufferable) {
      d.classification = "needs buffering";
      verdict = "an unsafe program (MPI-4.1 §3.5, Example 3.9): each send waits for a receive that its peer posts "
                "only after its own send. It completes with an eager threshold >= " +
                std::to_string(largest) + " bytes (--cfg eager-threshold=" + std::to_string(largest) +
                ") or with MPI_Sendrecv / nonblocking calls.";
      d.json["eager_threshold_that_completes"] = largest;
    } else {
      d.classification = "incorrect under every MPI";
      verdict = "a cycle of blocked non-local calls (MPI-4.1 §2.4.2, §3.4): no MPI implementation, whatever its "
                "progress or buffering, can complete it.";
    }
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
  text += "\n  class: " + d.classification + " - " + verdict;
  d.text = text;
  d.json["class"] = d.classification;
  d.json["explanation"] = verdict;
  d.json["cycle"] = cycle_json;
  d.json["ranks"] = ranks;
  return d;
}

}  // namespace progsim::mpi
