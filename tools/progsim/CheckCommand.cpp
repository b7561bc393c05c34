// progsim check: is this program correct MPI, does the standard define its
// result, and if not, where and why?
//
// Runs the program under a set of configurations that covers what correct
// MPI implementations may do (the progress policies, and the implementation
// freedoms progsim models: eager threshold 0 / default / unbounded,
// synchronizing collectives or not, rendezvous push or pull, MPI_Win_start
// blocking, MPI_Session_finalize synchronizing), one `progsim run` child per
// configuration (SimGrid keeps global state), and prints one table of
// configurations and outcomes, then every distinct finding once with the
// first configuration that shows it. Configurations are ordered by how far
// they are from the defaults, so "first" is also "smallest".
//
// Then, within the same --max-runs, the message races: each policy's
// default run records its decisions (wildcard receives and probes with
// MPI_ANY_SOURCE, MPI_ANY_TAG; which requests MPI_Waitany, Testany, Waitsome
// and Testsome return) and the other choices a correct MPI could have made; each
// alternative is run (--cfg match-schedule), depth first, its own later
// decisions explored in turn (RaceExploration.cpp). A finding first seen
// there is a message race. Alternatives left over are listed as unexplored.

#include "progsim/Commands.hpp"
#include "progsim/RaceExploration.hpp"
#include "progsim/ReportedRun.hpp"

#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "sim/TemporaryDirectory.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <string>
#include <unistd.h>
#include <vector>

namespace progsim::cli {

namespace {

constexpr int kExitFindings = 1;  // some configuration did not complete cleanly, or its result is undefined

// One implementation freedom set away from its default: a --cfg value.
struct FreedomSetting {
  const char* key;    // the --cfg key
  const char* value;  // its value
  const char* label;  // how the table names it
};

// The freedoms check varies, one at a time (their defaults are the first
// configuration of each policy). MPI-4.1 lets an implementation buffer
// standard sends or not (§3.5), synchronize collectives or not (§6.14),
// block in MPI_Win_start or not (§12.5.2), synchronize in
// MPI_Session_finalize or not (§11.3.1); push and pull are the two
// rendezvous protocols real implementations use.
const std::vector<FreedomSetting>& freedom_settings()
{
  static const std::vector<FreedomSetting> settings = {
      {"eager-threshold", "0", "eager-threshold=0"},
      {"eager-threshold", "1099511627776", "eager-threshold=unbounded"},
      {"coll-sync", "always", "coll-sync=always"},
      {"coll-sync", "never", "coll-sync=never"},
      {"rendezvous", "pull", "rendezvous=pull"},
      {"win-start-blocks", "yes", "win-start-blocks=yes"},
      {"session-finalize-sync", "collective", "session-finalize-sync=collective"},
  };
  return settings;
}

struct Configuration {
  std::string name;     // "weak" or "weak, eager-threshold=0"
  std::string policy;
  const FreedomSetting* freedom = nullptr;  // nullptr: the defaults
};

std::vector<Configuration> configurations(const std::vector<std::string>& policies)
{
  std::vector<Configuration> list;
  for (const std::string& p : policies)
    list.push_back({p, p, nullptr});
  for (const FreedomSetting& f : freedom_settings())
    for (const std::string& p : policies)
      list.push_back({p + ", " + f.label, p, &f});
  return list;
}

// What a run showed that a correct program under a correct MPI would not.
struct Finding {
  std::string key;    // identity across configurations
  std::string kind;   // "deadlock", "error", "undefined", "stuck", "aborted", "crashed", ...
  std::string klass;  // the explanation class or the rule broken
  std::string summary;
  std::string explanation;
  std::string first;  // the first (smallest) configuration that shows it
  int configurations = 0;
  std::string race;   // a message race: the decision and the alternative that show it
};

// The explanation class of an error of the standard's checks: its rule,
// but for type signatures, which check names as a class of their own.
std::string error_class(const std::string& rule)
{
  return rule == "type mismatch" ? "type mismatch" : rule;
}

std::string sites_text(const nlohmann::json& sites)
{
  std::string text;
  for (const auto& s : sites) {
    if (!text.empty())
      text += "; ";
    text += "rank " + std::to_string(s.value("rank", -1)) + " " + s.value("call", s.value("last_call", "?"));
    std::string source = s.value("source", "");
    if (!source.empty())
      text += " at " + source;
  }
  return text;
}

// What identifies an undefined outcome across configurations: its rule and
// its calls' source lines, in sorted order. Which ranks' accesses meet first
// depends on timing (the policy, the freedoms), not on the program's fault;
// "" when a site has no source line (then the ranks are kept).
std::string source_lines_key(const nlohmann::json& e)
{
  std::vector<std::string> lines;
  for (const auto& s : e.value("sites", nlohmann::json::array())) {
    std::string source = s.value("source", "");
    if (source.empty())
      return "";
    lines.push_back(s.value("call", "?") + " at " + source);
  }
  std::sort(lines.begin(), lines.end());
  std::string key = e.value("rule", "");
  for (const std::string& l : lines)
    key += "|" + l;
  return key;
}

// The findings of the report's list `key` ("errors" or "undefined"), of
// kind `kind`; `klass` names their class ("" for errors: their rule).
void add_rule_findings(const nlohmann::json& report, const char* key, const char* kind, const char* klass,
                       std::vector<Finding>& found)
{
  bool undefined = std::string(kind) == "undefined";
  if (!report.contains(key) || !report[key].is_array())
    return;
  for (const auto& e : report[key]) {
    Finding f;
    f.kind = kind;
    f.klass = *klass ? klass : error_class(e.value("rule", "error"));
    f.summary = e.value("what", "") + " (" + e.value("section", "") + ")";
    f.explanation = e.value("requirement", "");
    std::string sites = e.contains("sites") ? sites_text(e["sites"]) : "";
    if (!sites.empty())
      f.summary += ": " + sites;
    std::string lines = undefined ? source_lines_key(e) : "";
    f.key = std::string(kind) + "|" + f.klass + "|" + (lines.empty() ? sites : lines);
    found.push_back(f);
  }
}

// The findings of one run's report.
std::vector<Finding> findings_of(const nlohmann::json& report)
{
  std::vector<Finding> found;
  add_rule_findings(report, "errors", "error", "", found);
  // Correct MPI whose result the standard leaves undefined (conflicting RMA
  // accesses, MPI-4.1 §12.7): a finding too, since check asks whether the
  // standard defines what the program computes.
  add_rule_findings(report, "undefined", "undefined", "undefined outcome", found);
  std::string outcome = report.value("outcome", "error");
  if (outcome == "deadlock" && report.contains("deadlock") && report["deadlock"].is_object()) {
    const auto& d = report["deadlock"];
    Finding f;
    f.kind = "deadlock";
    f.klass = d.value("class", "deadlock");
    // Who is blocked where identifies the deadlock; what the calls carry
    // (sizes, times) may differ between configurations.
    nlohmann::json sites = nlohmann::json::array();
    if (d.contains("ranks"))
      for (const auto& r : d["ranks"])
        sites.push_back({{"rank", r.value("rank", -1)},
                         {"call", r.value("last_call", "?")},
                         {"source", r.value("source", "")}});
    f.summary = "blocked: " + sites_text(sites);
    f.explanation = d.value("explanation", "");
    f.key = "deadlock|" + f.klass + "|" + f.summary;
    found.push_back(f);
  } else if (outcome != "completed" && outcome != "erroneous") {
    Finding f;
    f.kind = outcome;
    f.klass = outcome;
    f.summary = report.value("message", "");
    // The same abort happens at other times under other configurations.
    static const std::regex kTime(" at t=[0-9.e+-]+ s");
    f.key = outcome + "|" + std::regex_replace(f.summary, kTime, "");
    found.push_back(f);
  }
  return found;
}

void print_check_help()
{
  std::printf(
      "Usage: progsim check [check options] [run options] PROGRAM [ARGS...]\n"
      "\n"
      "Is PROGRAM correct MPI, and does the standard define its result? Runs it under\n"
      "every progress policy and, one at a time, under the implementation freedoms\n"
      "progsim models (eager threshold 0 and unbounded, collectives synchronizing\n"
      "always and never, rendezvous pull, MPI_Win_start blocking,\n"
      "MPI_Session_finalize synchronizing), prints one table of configurations and\n"
      "outcomes, then every distinct finding once with the first configuration that\n"
      "shows it (configurations are ordered from the defaults outwards, so it is also\n"
      "the smallest) and its explanation class: needs buffering, needs strong\n"
      "progress, implementation freedom, incorrect under every MPI, memory\n"
      "synchronization, type mismatch, undefined outcome (correct MPI whose result\n"
      "the standard leaves undefined: conflicting RMA accesses, MPI-4.1 §12.7; the\n"
      "run completes), or the rule of the standard broken.\n"
      "\n"
      "Then the message races: the default run of each policy records every decision\n"
      "of a wildcard receive or probe (MPI_ANY_SOURCE, MPI_ANY_TAG: the message it\n"
      "takes or sees) and of MPI_Waitany, MPI_Testany, MPI_Waitsome, MPI_Testsome (the\n"
      "completed requests they return), with the other messages (requests) a correct\n"
      "MPI could have matched (returned) instead; MPI_Waitsome and MPI_Testsome's\n"
      "alternatives are each request returned alone. Each alternative is run (--cfg\n"
      "match-schedule), depth first, within --max-runs. A finding first seen there\n"
      "has the class message race and names the decision, the choice of the default\n"
      "run and the one that leads to it. An alternative that cannot happen (its\n"
      "message never comes) is shown as infeasible, not as the program's error.\n"
      "\n"
      "Check options:\n"
      "  --policies LIST     comma-separated policies (default: every policy)\n"
      "  --max-runs N        run at most N configurations and alternative matches\n"
      "                      (default 64); the output lists those left unexplored\n"
      "  --json              print the result as JSON\n"
      "  --reports DIR       keep each configuration's JSON report, program output and\n"
      "                      log in DIR (CONFIG-NUMBER.json, .out, .log)\n"
      "  -h, --help          this text\n"
      "Run options are those of 'progsim run' (-n, --platform, --cfg, --strict, --check buffers, ...).\n"
      "\n"
      "Not explored: a test or nonblocking probe that found nothing while a message\n"
      "was on its way, other subsets of MPI_Waitsome/Testsome, the freedoms' runs.\n"
      "\n"
      "Exit status: 0 when every configuration completed without a finding: the\n"
      "program is correct and the standard defines its result; 1 when some\n"
      "configuration showed a finding (an undefined outcome too, although such a\n"
      "run completes); 2 for a usage error.\n");
}

long parse_max_runs(const std::string& text)
{
  char* end = nullptr;
  long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 1)
    throw sim::InputError{"--max-runs " + text + ": not a positive number"};
  return n;
}

std::string padded(const std::string& text, std::size_t width)
{
  return text.size() >= width ? text + " " : text + std::string(width - text.size(), ' ');
}

}  // namespace

int check_command(int argc, char** argv)
{
  try {
    std::vector<std::string> policies = catalogue_policy_names();
    long max_runs = 64;
    bool json = false;
    std::string reports_dir;
    std::vector<std::string> run_args;  // as compare: everything else goes to `progsim run`
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "-h" || arg == "--help") {
        print_check_help();
        return 0;
      }
      if (policy_run_option(argc, argv, i, policies, "check"))
        continue;
      if (arg == "--max-runs" && i + 1 < argc)
        max_runs = parse_max_runs(argv[++i]);
      else if (arg.rfind("--max-runs=", 0) == 0)
        max_runs = parse_max_runs(arg.substr(11));
      else if (arg == "--json")
        json = true;
      else if (arg == "--reports" && i + 1 < argc)
        reports_dir = argv[++i];
      else
        run_args.push_back(arg);
    }
    check_policy_run(policies, run_args, "check");

    std::string dir = reports_dir;
    std::unique_ptr<sim::TemporaryDirectory> temporary_dir;
    if (dir.empty()) {
      temporary_dir = std::make_unique<sim::TemporaryDirectory>("progsim-check");
      dir = temporary_dir->path();
    } else if (::access(dir.c_str(), W_OK) != 0) {
      throw sim::InputError{reports_dir + ": not a writable directory"};
    }

    std::vector<Configuration> all = configurations(policies);
    std::size_t budget = static_cast<std::size_t>(max_runs);
    bool tty = ::isatty(2);
    nlohmann::ordered_json rows = nlohmann::ordered_json::array();
    std::vector<Finding> findings;              // in order of first appearance
    std::map<std::string, std::size_t> by_key;  // finding key -> index
    std::string program;
    int nranks = 0;
    bool usage_error = false;
    // One run: a configuration, or an alternative match (`branch`). Returns
    // its report (null after a usage error).
    auto run_one = [&](const std::string& name, const std::string& policy, const std::string& cfg, bool record,
                       const RaceBranch* branch) -> nlohmann::json {
      std::size_t k = rows.size();
      if (tty)
        std::fprintf(stderr, "\r\033[K[%zu/%zu] %s", k + 1, budget, name.c_str());
      std::vector<std::string> options = {"--progress", policy};
      if (!cfg.empty())
        options.insert(options.end(), {"--cfg", cfg});
      if (record)  // its decisions are explored: recorded with their alternatives
        options.insert(options.end(), {"--cfg", "match-record=yes"});
      ReportedRun run = run_with_report(dir, "config-" + std::to_string(k + 1), options, run_args);
      if (run.exit_status == sim::kExitUsageError) {
        if (tty)
          std::fputs("\n", stderr);
        std::cerr << file_text(run.log_file);
        usage_error = true;
        return nullptr;
      }
      program = run.report.value("program", program);
      nranks = run.report.value("nranks", nranks);
      nlohmann::ordered_json row;
      row["configuration"] = name;
      row["policy"] = policy;
      row["cfg"] = cfg;
      std::string why;
      bool infeasible = race_infeasible(run.report, why);
      row["outcome"] = infeasible ? "infeasible" : run.report.value("outcome", "error");
      row["exit_status"] = run.exit_status;
      row["simulated_time"] = run.report.value("simulated_time", 0.0);
      if (branch)
        row["alternative"] = branch->description;
      if (infeasible)
        row["infeasible"] = why;  // the schedule's match never came: no execution of the program
      row["findings"] = nlohmann::ordered_json::array();
      for (Finding& f : infeasible ? std::vector<Finding>{} : findings_of(run.report)) {
        auto [it, added] = by_key.emplace(f.key, findings.size());
        if (added) {
          f.first = name;
          if (branch) {
            // Seen under no configuration, only when a decision went the other way.
            f.explanation = "(in that execution: " + f.klass + (f.explanation.empty() ? "" : ", ") +
                            f.explanation + ")";
            f.klass = "message race";
            f.race = branch->race;
          }
          findings.push_back(f);
        }
        ++findings[it->second].configurations;
        row["findings"].push_back(it->second + 1);
      }
      rows.push_back(row);
      if (temporary_dir)
        for (const std::string& f : {run.report_file, run.log_file, run.output_file})
          ::unlink(f.c_str());
      return run.report;
    };

    std::vector<std::string> unexplored;
    std::map<std::string, nlohmann::json> default_reports;  // by policy: whose decisions are explored
    for (const Configuration& c : all) {
      if (rows.size() >= budget) {
        unexplored.push_back(c.name);
        continue;
      }
      std::string cfg = c.freedom ? std::string(c.freedom->key) + "=" + c.freedom->value : "";
      nlohmann::json report = run_one(c.name, c.policy, cfg, !c.freedom, nullptr);
      if (usage_error)
        return sim::kExitUsageError;
      if (!c.freedom)
        default_reports[c.policy] = report;
    }
    // Depth first, each policy in turn: a run's own alternatives come next.
    for (const std::string& p : policies) {
      if (!default_reports.count(p))
        continue;
      std::vector<RaceBranch> stack = race_branches(default_reports[p], p, p);
      std::reverse(stack.begin(), stack.end());
      while (!stack.empty()) {
        RaceBranch b = stack.back();
        stack.pop_back();
        if (rows.size() >= budget) {
          unexplored.push_back(p + ": " + b.description);
          continue;
        }
        std::string name = p + ", " + b.label;
        nlohmann::json report = run_one(name, p, "match-schedule=" + b.schedule, true, &b);
        if (usage_error)
          return sim::kExitUsageError;
        std::vector<RaceBranch> next = race_branches(report, p, name);
        stack.insert(stack.end(), next.rbegin(), next.rend());
      }
    }
    std::size_t explored = rows.size();
    if (tty)
      std::fputs("\r\033[K", stderr);
    temporary_dir.reset();

    std::vector<std::string> classes;
    for (const Finding& f : findings)
      if (std::find(classes.begin(), classes.end(), f.klass) == classes.end())
        classes.push_back(f.klass);
    std::string verdict = findings.empty() ? "no error found in the explored configurations" : "";
    for (const std::string& c : classes)
      verdict += (verdict.empty() ? "" : ", ") + c;

    if (json) {
      nlohmann::ordered_json out;
      out["program"] = program;
      out["nranks"] = nranks;
      out["configurations"] = rows;
      out["findings"] = nlohmann::ordered_json::array();
      for (std::size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        out["findings"].push_back({{"id", i + 1},
                                   {"kind", f.kind},
                                   {"class", f.klass},
                                   {"summary", f.summary},
                                   {"explanation", f.explanation},
                                   {"first_configuration", f.first},
                                   {"configurations", f.configurations},
                                   {"race", f.race}});
      }
      out["unexplored"] = unexplored;
      out["verdict"] = verdict;
      std::printf("%s\n", out.dump(2).c_str());
    } else {
      std::printf("progsim check: %s on %d ranks, %zu configurations\n\n", program.c_str(), nranks, explored);
      std::size_t width = 14;
      for (const auto& r : rows)
        width = std::max(width, r["configuration"].get<std::string>().size() + 2);
      std::printf("%s%-11s %-14s %s\n", padded("configuration", width).c_str(), "outcome", "sim. time", "findings");
      for (const auto& r : rows) {
        std::string ids;
        for (const auto& id : r["findings"])
          ids += (ids.empty() ? "#" : ", #") + std::to_string(id.get<int>());
        std::printf("%s%-11s %-14s %s\n", padded(r["configuration"].get<std::string>(), width).c_str(),
                    r["outcome"].get<std::string>().c_str(),
                    sim::format_time(r["simulated_time"].get<double>()).c_str(), ids.c_str());
      }
      std::printf("\n");
      for (std::size_t i = 0; i < findings.size(); ++i) {
        const Finding& f = findings[i];
        std::printf("#%zu %s, %s: %s\n   first under: %s; in %d of %zu configurations\n", i + 1, f.kind.c_str(),
                    f.klass.c_str(), f.summary.c_str(), f.first.c_str(), f.configurations, explored);
        if (!f.race.empty())
          std::printf("   race: %s\n", f.race.c_str());
        if (!f.explanation.empty())
          std::printf("   %s\n", f.explanation.c_str());
      }
      std::printf("not explored: %s\n", unexplored.empty() ? "nothing" : "");
      for (const std::string& u : unexplored)
        std::printf("   %s\n", u.c_str());
      std::printf("verdict: %s\n", verdict.c_str());
    }
    return findings.empty() ? 0 : kExitFindings;
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim check: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace progsim::cli
