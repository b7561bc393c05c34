#include "diagnosis/DeadlockRendering.hpp"

#include "sim/Diagnostics.hpp"

namespace progsim::mpi {

namespace {

std::string at(const std::string& source)
{
  return source.empty() ? "" : " at " + source;
}

// What a rank polling watched memory waits for.
std::string memory_write(const RankView& v)
{
  return "a write to '" + v.watch + "' by another rank or an RMA operation";
}

std::string rank_text(const RankView& v)
{
  std::string text = "\n  rank " + std::to_string(v.rank) + ": ";
  switch (v.state) {
    case RankView::Finished: return text + "finished at " + sim::format_time(v.finish_time);
    case RankView::Polling:
      return text + "polling watched memory '" + v.watch + "' at offset " + std::to_string(v.offset) + " since " +
             sim::format_time(v.since) + at(v.source) +
             " (a busy-wait loop in user code, outside MPI)\n      waits for " + memory_write(v);
    case RankView::Blocked: break;
  }
  if (v.livelocked)
    text += "polls " + v.call + at(v.source) + " since " + sim::format_time(v.since) + " (" +
            std::to_string(v.tests_in_a_row) + " test calls in a row found nothing and nothing can arrive: a livelock)";
  else
    text += "blocked since " + sim::format_time(v.since) + " in " + v.call + at(v.source) +
            " (a blocked non-local call)";
  for (const WaitEdge& e : v.edges)
    text += "\n      waits for " + e.waits_for;
  if (v.edges.empty())
    text += "\n      waits for its own pending activities: " + v.own_pending;
  return text;
}

nlohmann::ordered_json edge_json(const WaitEdge& e)
{
  nlohmann::ordered_json w = {{"rank", e.to >= 0 ? nlohmann::ordered_json(e.to) : nlohmann::ordered_json("any")},
                              {"kind", to_string(e.kind)},
                              {"what", e.waits_for}};
  if (!e.chunk.empty())
    w["chunk"] = e.chunk;
  if (!e.freedom.empty())
    w["implementation_freedom"] = e.freedom;
  if (!e.error.empty())
    w["error"] = e.error;
  return w;
}

nlohmann::ordered_json rank_json(const RankView& v)
{
  nlohmann::ordered_json entry;
  entry["rank"] = v.rank;
  if (v.state == RankView::Finished) {
    entry["state"] = "finished";
    entry["finish_time"] = v.finish_time;
    return entry;
  }
  if (v.state == RankView::Polling) {
    entry["state"] = "polling";
    entry["watch"] = v.watch;
    entry["offset"] = v.offset;
    entry["polling_since"] = v.since;
    entry["source"] = v.source;
    entry["last_call"] = v.last_call;
    entry["waits_for"] = nlohmann::ordered_json::array(
        {{{"rank", "any"}, {"kind", to_string(WaitKind::Memory)}, {"what", memory_write(v)}}});
    return entry;
  }
  entry["call"] = v.call;
  entry["source"] = v.source;
  entry["last_call"] = v.last_call;
  if (v.livelocked) {
    entry["state"] = "polling";
    entry["polling_since"] = v.since;
    entry["tests_in_a_row"] = v.tests_in_a_row;
  } else {
    entry["state"] = "blocked";
    entry["blocked_since"] = v.since;
  }
  nlohmann::ordered_json waits = nlohmann::ordered_json::array();
  for (const WaitEdge& e : v.edges)
    waits.push_back(edge_json(e));
  if (v.edges.empty())
    waits.push_back({{"rank", v.rank}, {"kind", to_string(WaitKind::Own)}, {"what", v.own_pending}});
  entry["waits_for"] = waits;
  return entry;
}

}  // namespace

std::string render_deadlock_text(const std::vector<RankView>& views, const WaitChains& chains,
                                 const DeadlockClass& cls)
{
  std::string text;
  for (const RankView& v : views)
    text += rank_text(v);
  if (!chains.cycle.empty()) {
    std::string chain;
    for (int r : chains.cycle)
      chain += "rank " + std::to_string(r) + " -> ";
    text += "\n  cycle: " + chain + "rank " + std::to_string(chains.cycle.front());
  }
  return text + "\n  class: " + cls.name + " - " + cls.explanation;
}

nlohmann::ordered_json render_deadlock_json(const std::vector<RankView>& views, const WaitChains& chains,
                                            const DeadlockClass& cls)
{
  nlohmann::ordered_json json = cls.evidence;
  json["class"] = cls.name;
  json["explanation"] = cls.explanation;
  nlohmann::ordered_json cycle = nlohmann::ordered_json::array();
  for (int r : chains.cycle)
    cycle.push_back(r);
  json["cycle"] = cycle;
  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (const RankView& v : views)
    ranks.push_back(rank_json(v));
  json["ranks"] = ranks;
  return json;
}

}  // namespace progsim::mpi
