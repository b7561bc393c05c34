#include "progsim/HtmlExplanation.hpp"

#include "progsim/Markup.hpp"
#include "progsim/TimeUnits.hpp"

#include <fstream>
#include <regex>
#include <sstream>

namespace progsim::cli {

namespace {

// The text of line `line` of `file`, looked for beside the program and in
// the working directory; "" when not found.
std::string source_line(const std::string& program, const std::string& file, int line)
{
  std::string program_dir = program.find('/') == std::string::npos ? "." : program.substr(0, program.rfind('/'));
  for (const std::string& path : {program_dir + "/" + file, file}) {
    std::ifstream in(path);
    std::string text;
    for (int k = 1; in && std::getline(in, text); ++k)
      if (k == line) {
        std::size_t start = text.find_first_not_of(" \t");
        return start == std::string::npos ? "" : text.substr(start);
      }
  }
  return "";
}

// "main (deadlock.c:12)" -> "<code>deadlock.c:12</code> in main" and the
// line's text when found.
std::string source_html(const std::string& program, const std::string& source)
{
  static const std::regex kLocation(R"(^(.*) \(([^():]+):([0-9]+)\)$)");
  std::smatch m;
  if (!std::regex_match(source, m, kLocation))
    return source.empty() ? "" : " at <code>" + escape_markup(source) + "</code>";
  std::string out = " at <code>" + escape_markup(m[2].str() + ":" + m[3].str()) + "</code> in <code>" +
                    escape_markup(m[1].str()) + "</code>";
  std::string text = source_line(program, m[2].str(), std::stoi(m[3].str()));
  if (!text.empty())
    out += "<code class=\"source\">" + escape_markup(m[3].str() + " | " + text) + "</code>";
  return out;
}

std::string deadlock_html(const PolicyRun& run, const std::string& program)
{
  const nlohmann::json& d = run.report["deadlock"];
  std::string out = "<p><strong>Deadlock at " + format_instant(run.report.value("simulated_time", 0.0)) + ": " +
                    escape_markup(d.value("class", "")) + ".</strong> " + escape_markup(d.value("explanation", "")) +
                    "</p>\n<ul class=\"blocked-ranks\">\n";
  for (const auto& rank : d.value("ranks", nlohmann::json::array())) {
    std::string state = rank.value("state", "blocked");
    out += "<li><strong>Rank " + std::to_string(rank.value("rank", 0)) + "</strong> is ";
    if (state == "polling")  // in user code: its call is the last one it made
      out += "polling watched memory" + source_html(program, rank.value("source", "")) +
             " (its last MPI call: <code>" + escape_markup(rank.value("call", rank.value("last_call", ""))) + "</code>)";
    else {
      out += escape_markup(state);
      if (rank.contains("blocked_since") && rank["blocked_since"].is_number())
        out += " since " + format_instant(rank["blocked_since"].get<double>());
      out += " in <code>" + escape_markup(rank.value("call", rank.value("last_call", ""))) + "</code>" +
             source_html(program, rank.value("source", ""));
    }
    std::string waits;
    for (const auto& w : rank.value("waits_for", nlohmann::json::array()))
      waits += (waits.empty() ? "" : "; ") + escape_markup(w.value("what", ""));
    if (!waits.empty())
      out += "<br>It waits for " + waits + ".";
    out += "</li>\n";
  }
  out += "</ul>\n";
  const nlohmann::json cycle = d.value("cycle", nlohmann::json::array());
  if (!cycle.empty()) {
    std::string text;
    for (const auto& r : cycle)
      text += "rank " + std::to_string(r.get<int>()) + " \u2192 ";
    out += "<p>The ranks wait for each other in a cycle: " + text + "rank " + std::to_string(cycle[0].get<int>()) +
           ".</p>\n";
  }
  return out;
}

// Other ends (crash, abort, erroneous, stuck): the message's lines as prose.
std::string message_html(const std::string& message)
{
  std::string out;
  std::stringstream lines(message);
  std::string line;
  while (std::getline(lines, line))
    if (line.find_first_not_of(' ') != std::string::npos)
      out += "<p>" + escape_markup(line.substr(line.find_first_not_of(' '))) + "</p>\n";
  return out;
}

std::string delays_html(const PolicyRun& run)
{
  const nlohmann::json delays = run.report.value("progress_delays", nlohmann::json::array());
  if (delays.empty())
    return "";
  std::string out = "<h4>Longest progress delays</h4>\n<ul class=\"delays\">\n";
  for (const auto& d : delays)
    out += "<li>A progress chunk of rank " + std::to_string(d.value("owner", 0)) + ", <code>" +
           escape_markup(d.value("chunk", "")) + "</code>, waited " + format_duration(d.value("delay", 0.0)) +
           " (from " + format_instant(d.value("enabled_at", 0.0)) + " to " + format_instant(d.value("run_at", 0.0)) +
           ") for its executor, " + escape_markup(d.value("executor", "")) + ": " + escape_markup(d.value("why", "")) +
           ".</li>\n";
  return out + "</ul>\n";
}

}  // namespace

std::string html_explanation(const PolicyRun& run, const std::string& program)
{
  std::string outcome = run.report.value("outcome", "error");
  std::string out = "<div class=\"explanation\" data-policy=\"" + escape_markup(run.policy) + "\" data-outcome=\"" +
                    escape_markup(outcome) + "\">\n<h3>" + escape_markup(run.policy) + ": " + escape_markup(outcome) +
                    "</h3>\n";
  if (run.report.contains("deadlock"))
    out += deadlock_html(run, program);
  else if (outcome == "completed")
    out += "<p>Completed at " + format_instant(run.report.value("simulated_time", 0.0)) + " of simulated time.</p>\n";
  else
    out += message_html(run.report.value("message", ""));
  return out + delays_html(run) + "</div>\n";
}

}  // namespace progsim::cli
