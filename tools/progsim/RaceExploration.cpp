#include "progsim/RaceExploration.hpp"

namespace progsim::cli {

namespace {

// "2" (a sender) or "#1" (MPI_Waitany's index): match-schedule's value.
std::string schedule_value(const nlohmann::json& choice, bool waitany)
{
  return waitany ? "#" + std::to_string(choice.value("index", -1)) : std::to_string(choice.value("source", -1));
}

// "rank 2's message" / "request 1"
std::string choice_text(const nlohmann::json& choice, bool waitany)
{
  return waitany ? "request " + std::to_string(choice.value("index", -1))
                 : "rank " + std::to_string(choice.value("world", -1)) + "'s message (tag " +
                       std::to_string(choice.value("tag", -1)) + ")";
}

}  // namespace

std::vector<RaceBranch> race_branches(const nlohmann::json& report, const std::string& policy, const std::string& run)
{
  std::vector<RaceBranch> branches;
  if (!report.contains("message_races") || !report["message_races"].contains("decisions"))
    return branches;
  std::string before;  // the decisions so far, as they were made
  for (const auto& d : report["message_races"]["decisions"]) {
    bool waitany = d.value("kind", "") == "waitany";
    std::string entry = std::to_string(d.value("rank", -1)) + ":" + std::to_string(d.value("decision", -1)) + "=";
    std::string site = d.value("call", std::string("?"));
    if (!d.value("site", std::string()).empty())
      site += " at " + d.value("site", std::string());
    std::string who = "rank " + std::to_string(d.value("rank", -1));
    if (!d.value("forced", false))
      for (const auto& a : d["alternatives"]) {
        RaceBranch b;
        b.policy = policy;
        b.schedule = before + entry + schedule_value(a, waitany);
        b.label = who + " #" + std::to_string(d.value("decision", -1)) + " <- " + schedule_value(a, waitany);
        b.description = who + "'s decision " + std::to_string(d.value("decision", -1)) + ", " + site + ": " +
                         choice_text(a, waitany) + " instead of " + choice_text(d["chosen"], waitany);
        b.race = who + "'s " + site + (waitany ? " returned " : " took ") + choice_text(d["chosen"], waitany) +
                 " in the " + run + " run; " + (waitany ? "returning " : "taking ") + choice_text(a, waitany) +
                 " instead leads to this";
        branches.push_back(b);
      }
    before += entry + schedule_value(d["chosen"], waitany) + ",";
  }
  return branches;
}

bool race_infeasible(const nlohmann::json& report, std::string& why)
{
  if (!report.contains("message_races") || !report["message_races"].value("infeasible", false))
    return false;
  why.clear();
  for (const auto& r : report["message_races"]["infeasible_reasons"])
    why += (why.empty() ? "" : "; ") + r.get<std::string>();
  return true;
}

}  // namespace progsim::cli
