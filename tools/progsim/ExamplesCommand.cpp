// progsim examples: the teaching catalogue under examples/. Each example is
// a folder with its program, a README.md that explains it, and example.json:
//   {"summary": "...", "source": "x.c", "ranks": 2, "run_options": [...],
//    "read": "MPI-4.1 §2.9",
//    "expected": {"weak": {"outcome": "deadlock", "class": "needs strong progress",
//                          "simulated_time": [10.0, 10.01]}, ...},
//    "check": {"verdict": "message race"}}
// `progsim examples run NAME` compiles the program with progsim-cc, compares
// the policies of "expected", and checks each outcome (exit status 1 when
// one differs), so the expected outcomes are tests; with "check", it also
// runs `progsim check` and checks its verdict.

#include "progsim/Commands.hpp"
#include "progsim/ReportedRun.hpp"
#include "progsim/Subprocess.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "sim/TemporaryDirectory.hpp"

#include <nlohmann/json.hpp>

#include <dirent.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace progsim::cli {

namespace {

void print_examples_help()
{
  std::printf(
      "Usage: progsim examples                     list the examples\n"
      "       progsim examples run NAME [OPTIONS]  compile NAME, compare its policies and check\n"
      "                                            the expected outcome of each\n"
      "\n"
      "OPTIONS are those of 'progsim compare' (--html FILE, --figures DIR, --json, --csv,\n"
      "--output-lines N).\n"
      "Each policy's program output is shown after the table (compare --help).\n"
      "The catalogue is read from %s\n"
      "(or from $PROGSIM_EXAMPLES_DIR). An example is a folder with its program, README.md\n"
      "and example.json (summary, source, ranks, run_options, expected outcome per policy,\n"
      "and optionally the verdict of 'progsim check', which run then checks too).\n"
      "\n"
      "Exit status of 'run': 1 when an outcome differs from the expected one; otherwise\n"
      "that of 'progsim compare': 0 when every policy's run completed, else the status of\n"
      "the first run that did not (3 for an expected deadlock); 2 for a usage error.\n",
      PROGSIM_EXAMPLES_DIR);
}

std::string examples_dir()
{
  const char* env = std::getenv("PROGSIM_EXAMPLES_DIR");
  return env && *env ? env : PROGSIM_EXAMPLES_DIR;
}

nlohmann::ordered_json read_json(const std::string& path)
{
  std::ifstream in(path);
  if (!in)
    throw sim::InputError{path + ": cannot read"};
  nlohmann::ordered_json j = nlohmann::ordered_json::parse(in, nullptr, false);
  if (j.is_discarded() || !j.is_object())
    throw sim::InputError{path + ": not a JSON object"};
  return j;
}

// Example names, sorted: the folders that have an example.json.
std::vector<std::string> example_names()
{
  std::vector<std::string> names;
  std::string dir = examples_dir();
  DIR* d = ::opendir(dir.c_str());
  if (!d)
    throw sim::InputError{dir + ": cannot open the examples folder"};
  while (dirent* e = ::readdir(d)) {
    std::string name = e->d_name;
    struct stat st {};
    if (name[0] != '.' && ::stat((dir + "/" + name + "/example.json").c_str(), &st) == 0)
      names.push_back(name);
  }
  ::closedir(d);
  std::sort(names.begin(), names.end());
  return names;
}

// "" when the report matches the expectation, else what differs.
std::string mismatch(const nlohmann::ordered_json& expected, const nlohmann::json& report)
{
  std::string outcome = report.value("outcome", "no report");
  std::string want = expected.value("outcome", "");
  if (outcome != want)
    return "outcome " + outcome + ", expected " + want;
  if (expected.contains("class")) {
    std::string cls = report.contains("deadlock") ? report["deadlock"].value("class", "") : "";
    if (cls != expected["class"].get<std::string>())
      return "deadlock class '" + cls + "', expected '" + expected["class"].get<std::string>() + "'";
  }
  if (expected.contains("simulated_time")) {
    double t = report.value("simulated_time", -1.0);
    double lo = expected["simulated_time"][0].get<double>(), hi = expected["simulated_time"][1].get<double>();
    if (t < lo || t > hi)
      return "simulated time " + std::to_string(t) + " s, expected in [" + std::to_string(lo) + ", " +
             std::to_string(hi) + "]";
  }
  return "";
}

// An example's "check": {"verdict": ...}: what `progsim check` concludes
// (a message race shows in no single run, a type mismatch is a class of its
// own). Prints the line and returns whether it differs.
bool check_verdict_differs(const nlohmann::ordered_json& e, const std::string& exe, const std::string& work)
{
  std::vector<std::string> args = {self_dir() + "/progsim", "check", "--json", "-n", std::to_string(e.value("ranks", 2))};
  for (auto& o : e.value("run_options", nlohmann::ordered_json::array()))
    args.push_back(o.get<std::string>());
  args.push_back(exe);
  std::string output = work + "/check.json", log = work + "/check.log";
  run_subprocess(args, log, output);
  std::ifstream in(output);
  nlohmann::json result = in ? nlohmann::json::parse(in, nullptr, false) : nlohmann::json();
  std::string verdict = result.is_object() ? result.value("verdict", "") : "no result (" + file_text(log) + ")";
  std::string want = e["check"].value("verdict", "");
  std::printf("  %-8s %s: %s\n", "check", want.c_str(),
              verdict == want ? "ok" : ("MISMATCH, progsim check says " + verdict).c_str());
  ::unlink(output.c_str());
  ::unlink(log.c_str());
  return verdict != want;
}

int list_examples()
{
  std::string dir = examples_dir();
  for (const std::string& name : example_names()) {
    nlohmann::ordered_json e = read_json(dir + "/" + name + "/example.json");
    std::printf("%-24s %s\n", name.c_str(), e.value("summary", "").c_str());
  }
  std::printf("\nprogsim examples run NAME compiles one and compares the progress policies;\n"
              "its README.md (in %s/NAME) explains it.\n",
              dir.c_str());
  return 0;
}

int run_example(const std::string& name, const std::vector<std::string>& compare_options)
{
  std::vector<std::string> names = example_names();
  if (std::find(names.begin(), names.end(), name) == names.end())
    throw sim::InputError{"no example '" + name + "' (progsim examples lists them)"};
  std::string folder = examples_dir() + "/" + name;
  nlohmann::ordered_json e = read_json(folder + "/example.json");
  if (!e.contains("expected") || !e["expected"].is_object() || e["expected"].empty())
    throw sim::InputError{folder + "/example.json: no \"expected\" outcomes"};

  sim::TemporaryDirectory work_dir("progsim-example");  // removed with its files at every return
  const std::string& work = work_dir.path();
  std::string source = folder + "/" + e.value("source", name + ".c");
  std::string compiler = self_dir() + (source.size() > 4 && source.substr(source.size() - 4) == ".cpp" ? "/progsim-cxx"
                                                                                                       : "/progsim-cc");
  std::string exe = work + "/" + name;
  if (run_subprocess({compiler, "-O1", source, "-o", exe}) != 0)
    throw sim::InputError{"cannot compile " + source};

  std::string policies;
  for (auto& [policy, expected] : e["expected"].items())
    policies += (policies.empty() ? "" : ",") + policy;
  // The reports are checked against the expectations: in the user's
  // --reports folder when given (and kept there), else in the work folder.
  std::string reports = work;
  bool user_reports = false;
  for (std::size_t i = 0; i + 1 < compare_options.size(); ++i)
    if (compare_options[i] == "--reports") {
      reports = compare_options[i + 1];
      user_reports = true;
    }
  std::vector<std::string> args = {self_dir() + "/progsim", "compare", "--policies", policies,
                                   "-n", std::to_string(e.value("ranks", 2))};
  if (!user_reports) {
    args.push_back("--reports");
    args.push_back(work);
  }
  for (auto& o : e.value("run_options", nlohmann::ordered_json::array()))
    args.push_back(o.get<std::string>());
  args.insert(args.end(), compare_options.begin(), compare_options.end());
  args.push_back(exe);
  // compare's status: 0 when every run completed, else that of the first
  // run that did not (an expected deadlock too); 2: it could not run.
  int status = run_subprocess(args);
  if (status == sim::kExitUsageError)
    return status;

  int failures = 0;
  std::printf("\nexpected (%s/example.json):\n", folder.c_str());
  for (auto& [policy, expected] : e["expected"].items()) {
    std::string report_file = reports + "/" + policy + ".json";
    nlohmann::json report;
    std::ifstream in(report_file);
    if (in)
      report = nlohmann::json::parse(in, nullptr, false);
    std::string diff = mismatch(expected, report.is_object() ? report : nlohmann::json::object());
    std::string cls = expected.contains("class") ? " (" + expected["class"].get<std::string>() + ")" : "";
    std::printf("  %-8s %s%s: %s\n", policy.c_str(), expected.value("outcome", "").c_str(), cls.c_str(),
                diff.empty() ? "ok" : ("MISMATCH, " + diff).c_str());
    failures += !diff.empty();
    if (!user_reports) {
      ::unlink(report_file.c_str());
      ::unlink((work + "/" + policy + ".log").c_str());
    }
  }
  if (e.contains("check"))
    failures += check_verdict_differs(e, exe, work);
  if (e.contains("read"))
    std::printf("read: %s; %s/README.md\n", e["read"].get<std::string>().c_str(), folder.c_str());
  return failures ? 1 : status;
}

}  // namespace

int examples_command(int argc, char** argv)
{
  try {
    if (argc >= 2 && (std::string(argv[1]) == "-h" || std::string(argv[1]) == "--help")) {
      print_examples_help();
      return 0;
    }
    if (argc < 2 || std::string(argv[1]) == "list")
      return list_examples();
    if (std::string(argv[1]) != "run" || argc < 3)
      throw sim::InputError{"usage: progsim examples [run NAME [compare options]]"};
    return run_example(argv[2], std::vector<std::string>(argv + 3, argv + argc));
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim: error: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace progsim::cli
