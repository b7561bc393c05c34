// Runs one program under `progsim run` and checks what a program test
// expects: outcome, exit status, output, and report values within stated
// tolerances. With --twice it runs the program again and requires
// byte-identical stdout, stderr and report (determinism). With --same-with
// ARG... it runs the program again with ARGs added to the options and
// requires the same stdout, stderr, exit status and report (the report's
// echo of a `--cfg key=value` ARG aside), numbers equal within TOL (1e-9:
// the printed resolution of times): for settings that must not change any
// result, such as the time quantum. --same-within-relative R also accepts
// numbers within R of their magnitude, and --same-report-paths P,P... limits
// the report comparison to those JSON pointers: for settings that may change
// results by a stated bound, such as the observation lag.
//
//   program_test --progsim BIN [--expect-outcome O] [--expect-exit N]
//                [--stdout-regex R]... [--stderr-regex R]... [--stderr-not-regex R]...
//                [--stdout-lines N]
//                [--check 'JSON_POINTER=VALUE'] [--check 'JSON_POINTER~VALUE+-TOL']...
//                [--check-absent JSON_POINTER]...
//                [--timeline-regex R]... [--no-temporary-files] [--twice]
//                [--same-with ARG]... [--same-within TOL] [--same-within-relative R]
//                [--same-report-paths P,P...] -- RUN_ARGS...
//
// RUN_ARGS are the arguments of `progsim run` (a --report FILE and, unless
// they have one, a --timeline FILE are added), or of another subcommand
// given with --command (a report for replay too).
// --timeline-regex adds --timeline FILE (to replay too) and matches the
// file's text.
// --no-temporary-files runs progsim with TMPDIR set to an empty directory
// and requires it to be empty again when progsim has ended.
//
// Every test also checks that time reads forwards in what the run wrote: no
// negative duration in the report or the timeline, nothing "since" a time
// after the run's end or after the deadlock, no message completing before it
// was posted.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <functional>
#include <map>
#include <iostream>
#include <regex>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

struct RunOutput {
  int exit_status = -1;
  std::string out, err, report, timeline;
  std::vector<std::string> left_behind;  // files progsim left in its TMPDIR
};

std::string slurp(const std::string& path)
{
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string command = "run";  // the progsim subcommand under test
bool want_timeline = false;
bool private_tmpdir = false;

std::vector<std::string> list_directory(const std::string& path)
{
  std::vector<std::string> names;
  if (DIR* dir = ::opendir(path.c_str())) {
    while (const dirent* entry = ::readdir(dir))
      if (std::strcmp(entry->d_name, ".") != 0 && std::strcmp(entry->d_name, "..") != 0)
        names.push_back(entry->d_name);
    ::closedir(dir);
  }
  std::sort(names.begin(), names.end());
  return names;
}

RunOutput run(const std::string& progsim, std::vector<std::string> args, const std::string& tag)
{
  std::string dir = std::string(std::getenv("TMPDIR") ? std::getenv("TMPDIR") : "/tmp");
  std::string base = dir + "/progsim-test-" + std::to_string(::getpid()) + "-" + tag;
  std::string out_file = base + ".out", err_file = base + ".err", report_file = base + ".json";
  bool paje = std::find(args.begin(), args.end(), "paje") != args.end();
  std::string timeline_file = base + (paje ? ".paje" : ".timeline.json");
  std::string child_tmpdir;
  if (private_tmpdir) {
    std::string templ = base + ".tmp-XXXXXX";
    if (::mkdtemp(templ.data()))
      child_tmpdir = templ;
  }
  std::vector<std::string> argv = {progsim, command};
  if (command == "run" || command == "replay") {
    argv.push_back("--report");
    argv.push_back(report_file);
    // Every run writes a timeline, checked by check_time_invariants.
    if (want_timeline ||
        (command == "run" && std::find(args.begin(), args.end(), "--timeline") == args.end())) {
      argv.push_back("--timeline");
      argv.push_back(timeline_file);
    }
  }
  argv.insert(argv.end(), args.begin(), args.end());
  pid_t pid = ::fork();
  if (pid == 0) {
    if (!child_tmpdir.empty())
      ::setenv("TMPDIR", child_tmpdir.c_str(), 1);
    std::freopen(out_file.c_str(), "w", stdout);
    std::freopen(err_file.c_str(), "w", stderr);
    std::vector<char*> cargv;
    for (auto& a : argv)
      cargv.push_back(a.data());
    cargv.push_back(nullptr);
    ::execv(progsim.c_str(), cargv.data());
    std::perror("execv");
    ::_exit(127);
  }
  int status = 0;
  ::waitpid(pid, &status, 0);
  RunOutput r;
  r.exit_status = WIFEXITED(status) ? WEXITSTATUS(status) : 1000 + WTERMSIG(status);
  r.out = slurp(out_file);
  r.err = slurp(err_file);
  r.report = slurp(report_file);
  r.timeline = slurp(timeline_file);
  ::unlink(out_file.c_str());
  ::unlink(err_file.c_str());
  ::unlink(report_file.c_str());
  ::unlink(timeline_file.c_str());
  if (!child_tmpdir.empty()) {
    r.left_behind = list_directory(child_tmpdir);
    for (const std::string& name : r.left_behind) {
      std::string path = child_tmpdir + "/" + name;
      for (const std::string& inner : list_directory(path))
        ::unlink((path + "/" + inner).c_str());
      ::rmdir(path.c_str());
      ::unlink(path.c_str());
    }
    ::rmdir(child_tmpdir.c_str());
  }
  return r;
}

int failures = 0;

void fail(const std::string& what)
{
  std::cout << "FAIL: " << what << "\n";
  ++failures;
}

// "POINTER=VALUE" (exact, JSON or plain string) or "POINTER~VALUE+-TOL" (numeric).
void check(const nlohmann::json& report, const std::string& spec)
{
  auto approx = spec.find('~');
  auto eq = spec.find('=');
  std::string pointer = spec.substr(0, approx != std::string::npos ? approx : eq);
  nlohmann::json actual;
  try {
    actual = report.at(nlohmann::json::json_pointer(pointer));
  } catch (const std::exception& e) {
    fail(spec + ": no value at " + pointer + " in the report");
    return;
  }
  if (approx != std::string::npos) {
    std::string rest = spec.substr(approx + 1);
    auto pm = rest.find("+-");
    double expected = std::stod(rest.substr(0, pm));
    double tolerance = pm == std::string::npos ? 0 : std::stod(rest.substr(pm + 2));
    if (!actual.is_number() || std::fabs(actual.get<double>() - expected) > tolerance)
      fail(spec + ": got " + actual.dump());
    else
      std::cout << "ok: " << pointer << " = " << actual.dump() << " (expected " << rest << ")\n";
    return;
  }
  std::string expected_text = spec.substr(eq + 1);
  nlohmann::json expected;
  try {
    expected = nlohmann::json::parse(expected_text);
  } catch (...) {
    expected = expected_text;
  }
  if (actual != expected)
    fail(spec + ": got " + actual.dump());
  else
    std::cout << "ok: " << pointer << " = " << actual.dump() << "\n";
}

// Time reads forwards (see the top of this file). Simulated times are
// printed with 9 decimals: 1e-9 s of slack.
void check_time_invariants(const RunOutput& r)
{
  constexpr double slack = 1e-9;
  double end = -1;
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(r.report);
  } catch (...) {
    report = nullptr;
  }
  if (report.is_object() && report.contains("simulated_time") && report["simulated_time"].is_number())
    end = report["simulated_time"].get<double>();
  int problems = 0;
  auto problem = [&](const std::string& what) {
    if (++problems <= 5)
      fail("time runs backwards: " + what);
  };
  // Report: durations (keys with "time", "duration", "delay") not negative;
  // instants ("since", "_at") not after the end.
  std::function<void(const nlohmann::json&, const std::string&)> walk = [&](const nlohmann::json& j,
                                                                            const std::string& path) {
    if (j.is_object()) {
      for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& key = it.key();
        const nlohmann::json& v = it.value();
        std::string where = path + "/" + key;
        if (v.is_number() && key != "parameters") {
          double x = v.get<double>();
          bool duration = key.find("time") != std::string::npos || key.find("duration") != std::string::npos ||
                          key.find("delay") != std::string::npos;
          bool instant = key.find("since") != std::string::npos ||
                         (key.size() > 3 && key.compare(key.size() - 3, 3, "_at") == 0);
          if (duration && x < -slack)
            problem(where + " = " + v.dump());
          if (instant && end >= 0 && x > end + slack)
            problem(where + " = " + v.dump() + " after the end at " + std::to_string(end));
        }
        if (key != "parameters")
          walk(v, where);
      }
    } else if (j.is_array()) {
      for (std::size_t i = 0; i < j.size(); ++i)
        walk(j[i], path + "/" + std::to_string(i));
    }
  };
  walk(report, "");
  // Explanations: each "since t=X s" not after the "deadlock at t=Y s" that
  // precedes it (stdout has one explanation per policy for compare/examples).
  std::string text = r.err + "\n" + r.out + "\n" +
                     (report.is_object() && report.contains("message") && report["message"].is_string()
                          ? report["message"].get<std::string>()
                          : "");
  std::regex instant("deadlock at t=([0-9.]+) s|since t=([0-9.]+) s");
  double deadlock_at = -1;
  for (auto it = std::sregex_iterator(text.begin(), text.end(), instant); it != std::sregex_iterator(); ++it) {
    if ((*it)[1].matched) {
      deadlock_at = std::stod((*it)[1]);
      continue;
    }
    double x = std::stod((*it)[2]);
    if (deadlock_at >= 0 && x > deadlock_at + slack)
      problem("'" + (*it)[0].str() + "' after the deadlock at " + std::to_string(deadlock_at));
  }
  // Timeline (Chrome format, microseconds).
  if (r.timeline.empty())
    return;
  nlohmann::json timeline;
  try {
    timeline = nlohmann::json::parse(r.timeline);
  } catch (...) {
    return;  // Paje or another format asked for by the test itself
  }
  double t_end = timeline["otherData"].value("end_time", -1.0) * 1e6;
  std::map<long, double> posted;
  for (const nlohmann::json& e : timeline["traceEvents"]) {
    std::string ph = e.value("ph", "");
    if (ph == "M")
      continue;
    double ts = e.value("ts", 0.0), dur = e.value("dur", 0.0);
    std::string what = e.value("name", "") + " (" + ph + ") at " + std::to_string(ts) + " us";
    if (ts < -slack * 1e6 || dur < -slack * 1e6)
      problem("timeline event " + what + " has a negative time or duration " + std::to_string(dur));
    if (t_end >= 0 && ts + dur > t_end + slack * 1e6)
      problem("timeline event " + what + " ends after the run's end at " + std::to_string(t_end) + " us");
    if (ph == "s")
      posted[e.value("id", 0L)] = ts;
    if (ph == "f" && posted.count(e.value("id", 0L)) && ts < posted[e.value("id", 0L)] - slack * 1e6)
      problem("timeline message " + what + " completes before it was posted");
  }
}

// The report without the echo of the `--cfg key=value` settings in `args`.
nlohmann::json report_without_settings(const std::string& text, const std::vector<std::string>& args)
{
  nlohmann::json report;
  try {
    report = nlohmann::json::parse(text);
  } catch (...) {
    return text;
  }
  for (std::size_t i = 0; i + 1 < args.size(); ++i)
    if (args[i] == "--cfg" && report.contains("parameters"))
      report["parameters"].erase(args[i + 1].substr(0, args[i + 1].find('=')));
  return report;
}

// Times printed with 9 decimals (and the report's doubles summed in another
// order) may differ in their last digit; a relative tolerance is for
// settings that change results within a stated bound.
double same_with_tolerance = 1e-9;
double same_with_relative = 0;

bool numbers_agree(double a, double b, double tolerance)
{
  return std::fabs(a - b) <= std::max(tolerance, same_with_relative * std::max(std::fabs(a), std::fabs(b)));
}

// Where two JSON values differ beyond `tolerance` for numbers ("" if nowhere).
std::string json_difference(const nlohmann::json& a, const nlohmann::json& b, double tolerance,
                            const std::string& path = "")
{
  if (a.is_number() && b.is_number())
    return numbers_agree(a.get<double>(), b.get<double>(), tolerance) ? "" : path + ": " + a.dump() + " against " + b.dump();
  if (a.type() != b.type() || a.size() != b.size())
    return path + ": " + a.dump().substr(0, 200) + " against " + b.dump().substr(0, 200);
  if (a.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key()))
        return path + "/" + it.key() + ": missing";
      std::string d = json_difference(it.value(), b[it.key()], tolerance, path + "/" + it.key());
      if (!d.empty())
        return d;
    }
    return "";
  }
  if (a.is_array()) {
    for (std::size_t i = 0; i < a.size(); ++i) {
      std::string d = json_difference(a[i], b[i], tolerance, path + "/" + std::to_string(i));
      if (!d.empty())
        return d;
    }
    return "";
  }
  return a == b ? "" : path + ": " + a.dump().substr(0, 200) + " against " + b.dump().substr(0, 200);
}

// Where two texts differ, numbers compared within `tolerance` ("" if nowhere).
std::string text_difference(const std::string& a, const std::string& b, double tolerance)
{
  static const std::regex number("[0-9]+\\.[0-9]+(e[-+][0-9]+)?");
  auto numbers = [](const std::string& t, std::vector<double>& out) {
    for (auto it = std::sregex_iterator(t.begin(), t.end(), number); it != std::sregex_iterator(); ++it)
      out.push_back(std::stod(it->str()));
    return std::regex_replace(t, number, "#");
  };
  std::vector<double> na, nb;
  std::string sa = numbers(a, na), sb = numbers(b, nb);
  std::istringstream la(sa), lb(sb);
  std::string x, y;
  for (int line = 1;; ++line) {
    bool more_a = static_cast<bool>(std::getline(la, x)), more_b = static_cast<bool>(std::getline(lb, y));
    if (!more_a && !more_b)
      break;
    if (x != y || more_a != more_b)
      return "line " + std::to_string(line) + ": '" + x + "' against '" + y + "' (numbers as #)";
  }
  for (std::size_t i = 0; i < na.size(); ++i)
    if (!numbers_agree(na[i], nb[i], tolerance))
      return "number " + std::to_string(i + 1) + ": " + std::to_string(na[i]) + " against " + std::to_string(nb[i]);
  return "";
}

// Output tagged with --tag-output, grouped by rank (each rank's lines in
// their order): ranks writing at the same simulated instant come out in
// either order.
std::string per_rank(const std::string& out)
{
  std::map<std::string, std::string> by_rank;
  std::istringstream in(out);
  std::string line;
  while (std::getline(in, line)) {
    std::string tag = line.rfind("[", 0) == 0 ? line.substr(0, line.find(']') + 1) : "";
    by_rank[tag] += line + "\n";
  }
  std::string grouped;
  for (auto& [tag, lines] : by_rank)
    grouped += lines;
  return grouped;
}

// The report parts compared (JSON pointers); all of it when empty.
std::vector<std::string> same_report_paths;

nlohmann::json report_parts(const nlohmann::json& report)
{
  if (same_report_paths.empty() || !report.is_object())
    return report;
  nlohmann::json parts = nlohmann::json::object();
  for (const std::string& p : same_report_paths) {
    nlohmann::json::json_pointer pointer(p);
    parts[p] = report.contains(pointer) ? report.at(pointer) : nlohmann::json("(missing)");
  }
  return parts;
}

void compare_with_setting(const std::string& progsim, const std::vector<std::string>& run_args,
                          const std::vector<std::string>& setting, const RunOutput& first)
{
  std::vector<std::string> args = setting;
  args.insert(args.end(), run_args.begin(), run_args.end());
  RunOutput other = run(progsim, args, "same");
  std::string with;
  for (const std::string& a : setting)
    with += (with.empty() ? "" : " ") + a;
  if (std::string d = text_difference(per_rank(first.out), per_rank(other.out), same_with_tolerance); !d.empty())
    fail("stdout differs with " + with + ": " + d);
  if (std::string d = text_difference(first.err, other.err, same_with_tolerance); !d.empty())
    fail("stderr differs with " + with + ": " + d);
  if (other.exit_status != first.exit_status)
    fail("exit status differs with " + with);
  std::string d = json_difference(report_parts(report_without_settings(first.report, setting)),
                                  report_parts(report_without_settings(other.report, setting)), same_with_tolerance);
  if (!d.empty())
    fail("the report differs with " + with + " at " + d);
  if (failures == 0)
    std::cout << "ok: same results with " << with << " (numbers within " << same_with_tolerance
              << (same_with_relative > 0 ? " or " + std::to_string(same_with_relative) + " of their size" : "")
              << ")\n";
}

}  // namespace

int main(int argc, char** argv)
{
  std::string progsim, outcome;
  int expect_exit = -1, stdout_lines = -1;
  bool twice = false;
  std::vector<std::string> stdout_regex, stderr_regex, timeline_regex, checks, run_args, same_with;
  std::vector<std::string> stderr_not_regex, absent;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    auto next = [&]() -> std::string {
      if (i + 1 >= argc) {
        std::cerr << a << " needs a value\n";
        std::exit(2);
      }
      return argv[++i];
    };
    if (a == "--progsim") progsim = next();
    else if (a == "--command") command = next();
    else if (a == "--expect-outcome") outcome = next();
    else if (a == "--expect-exit") expect_exit = std::stoi(next());
    else if (a == "--stdout-regex") stdout_regex.push_back(next());
    else if (a == "--stderr-regex") stderr_regex.push_back(next());
    else if (a == "--stderr-not-regex") stderr_not_regex.push_back(next());
    else if (a == "--check-absent") absent.push_back(next());
    else if (a == "--timeline-regex") {
      timeline_regex.push_back(next());
      want_timeline = true;
    } else if (a == "--no-temporary-files") private_tmpdir = true;
    else if (a == "--stdout-lines") stdout_lines = std::stoi(next());
    else if (a == "--check") checks.push_back(next());
    else if (a == "--twice") twice = true;
    else if (a == "--same-with") same_with.push_back(next());
    else if (a == "--same-within") same_with_tolerance = std::stod(next());
    else if (a == "--same-within-relative") same_with_relative = std::stod(next());
    else if (a == "--same-report-paths") {
      std::stringstream list(next());
      for (std::string p; std::getline(list, p, ',');)
        same_report_paths.push_back(p);
    }
    else if (a == "--") {
      run_args.assign(argv + i + 1, argv + argc);
      break;
    } else {
      std::cerr << "unknown option " << a << "\n";
      return 2;
    }
  }
  RunOutput first = run(progsim, run_args, "a");
  std::cout << "--- stdout\n" << first.out << "--- stderr\n" << first.err << "--- exit status " << first.exit_status
            << "\n";
  if (expect_exit >= 0 && first.exit_status != expect_exit)
    fail("exit status " + std::to_string(first.exit_status) + ", expected " + std::to_string(expect_exit));
  check_time_invariants(first);
  for (auto& r : stdout_regex)
    if (!std::regex_search(first.out, std::regex(r)))
      fail("stdout does not match /" + r + "/");
  for (auto& r : stderr_regex)
    if (!std::regex_search(first.err, std::regex(r)))
      fail("stderr does not match /" + r + "/");
  for (auto& r : stderr_not_regex)
    if (std::regex_search(first.err, std::regex(r)))
      fail("stderr matches /" + r + "/");
  for (auto& r : timeline_regex)
    if (!std::regex_search(first.timeline, std::regex(r)))
      fail("the timeline does not match /" + r + "/");
  for (auto& name : first.left_behind)
    fail("progsim left " + name + " in its TMPDIR");
  if (stdout_lines >= 0) {
    long lines = std::count(first.out.begin(), first.out.end(), '\n');
    if (lines != stdout_lines)
      fail("stdout has " + std::to_string(lines) + " lines, expected " + std::to_string(stdout_lines));
  }
  if (!outcome.empty() || !checks.empty() || !absent.empty()) {
    nlohmann::json report;
    try {
      report = nlohmann::json::parse(first.report);
    } catch (const std::exception& e) {
      fail(std::string("the report is not valid JSON: ") + e.what());
    }
    if (!outcome.empty())
      check(report, "/outcome=" + outcome);
    for (auto& c : checks)
      check(report, c);
    for (auto& pointer : absent) {
      if (report.contains(nlohmann::json::json_pointer(pointer)))
        fail(pointer + " is in the report: " + report.at(nlohmann::json::json_pointer(pointer)).dump());
      else
        std::cout << "ok: no " << pointer << " in the report\n";
    }
  }
  if (twice) {
    RunOutput second = run(progsim, run_args, "b");
    if (second.out != first.out)
      fail("stdout differs between two runs");
    if (second.err != first.err)
      fail("stderr differs between two runs");
    if (second.report != first.report)
      fail("the report differs between two runs");
    if (second.timeline != first.timeline)
      fail("the timeline differs between two runs");
    if (second.exit_status != first.exit_status)
      fail("exit status differs between two runs");
    if (failures == 0)
      std::cout << "ok: second run byte-identical\n";
  }
  if (!same_with.empty())
    compare_with_setting(progsim, run_args, same_with, first);
  std::cout << (failures ? "FAILED" : "PASSED") << "\n";
  return failures ? 1 : 0;
}
