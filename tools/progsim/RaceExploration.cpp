#include "progsim/RaceExploration.hpp"

namespace progsim::cli {

namespace {

// How a decision's choices are written, by its kind (the report's
// message_races/decisions/N/kind).
enum class Form {
  Message,  // receive, probe: a sender's message
  Index,    // waitany, testany: one request
  Indices,  // waitsome, testsome: a set of requests
};

Form form_of(const std::string& kind)
{
  if (kind == "waitany" || kind == "testany")
    return Form::Index;
  if (kind == "waitsome" || kind == "testsome")
    return Form::Indices;
  return Form::Message;
}

// "2" (a sender), "#1" (an index), "#0+1" (indices): match-schedule's value.
std::string schedule_value(const nlohmann::json& choice, Form form)
{
  if (form == Form::Message)
    return std::to_string(choice.value("source", -1));
  if (form == Form::Index)
    return "#" + std::to_string(choice.value("index", -1));
  std::string value;
  for (const auto& i : choice.value("indices", nlohmann::json::array()))
    value += (value.empty() ? "#" : "+") + std::to_string(i.get<int>());
  return value;
}

// "rank 2's message (tag 0)" / "request 1" / "requests 0, 1" / "request 1 alone"
std::string choice_text(const nlohmann::json& choice, Form form)
{
  if (form == Form::Message)
    return "rank " + std::to_string(choice.value("world", -1)) + "'s message (tag " +
           std::to_string(choice.value("tag", -1)) + ")";
  if (form == Form::Index)
    return "request " + std::to_string(choice.value("index", -1));
  nlohmann::json indices = choice.value("indices", nlohmann::json::array());
  if (indices.size() == 1)
    return "request " + std::to_string(indices[0].get<int>()) + " alone";
  std::string text;
  for (const auto& i : indices)
    text += (text.empty() ? "requests " : ", ") + std::to_string(i.get<int>());
  return text;
}

// What the call did with its choice: "took" / "taking".
std::string verb(const std::string& kind, bool past)
{
  if (kind == "receive")
    return past ? "took" : "taking";
  if (kind == "probe")
    return past ? "saw" : "seeing";
  return past ? "returned" : "returning";
}

}  // namespace

std::vector<RaceBranch> race_branches(const nlohmann::json& report, const std::string& policy, const std::string& run)
{
  std::vector<RaceBranch> branches;
  if (!report.contains("message_races") || !report["message_races"].contains("decisions"))
    return branches;
  std::string before;  // the decisions so far, as they were made
  for (const auto& d : report["message_races"]["decisions"]) {
    std::string kind = d.value("kind", "");
    Form form = form_of(kind);
    std::string entry = std::to_string(d.value("rank", -1)) + ":" + std::to_string(d.value("decision", -1)) + "=";
    std::string site = d.value("call", std::string("?"));
    if (!d.value("site", std::string()).empty())
      site += " at " + d.value("site", std::string());
    std::string who = "rank " + std::to_string(d.value("rank", -1));
    if (!d.value("forced", false))
      for (const auto& a : d["alternatives"]) {
        RaceBranch b;
        b.policy = policy;
        b.schedule = before + entry + schedule_value(a, form);
        b.label = who + " #" + std::to_string(d.value("decision", -1)) + " <- " + schedule_value(a, form);
        b.description = who + "'s decision " + std::to_string(d.value("decision", -1)) + ", " + site + ": " +
                        choice_text(a, form) + " instead of " + choice_text(d["chosen"], form);
        b.race = who + "'s " + site + " " + verb(kind, true) + " " + choice_text(d["chosen"], form) + " in the " +
                 run + " run; " + verb(kind, false) + " " + choice_text(a, form) + " instead leads to this";
        branches.push_back(b);
      }
    before += entry + schedule_value(d["chosen"], form) + ",";
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
