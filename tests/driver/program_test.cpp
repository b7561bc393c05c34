// Runs one program under `progsim run` and checks what a program test
// expects: outcome, exit status, output, and report values within stated
// tolerances. With --twice it runs the program again and requires
// byte-identical stdout, stderr and report (determinism).
//
//   program_test --progsim BIN [--expect-outcome O] [--expect-exit N]
//                [--stdout-regex R]... [--stderr-regex R]... [--stdout-lines N]
//                [--check 'JSON_POINTER=VALUE'] [--check 'JSON_POINTER~VALUE+-TOL']...
//                [--timeline-regex R]... [--no-temporary-files] [--twice] -- RUN_ARGS...
//
// RUN_ARGS are the arguments of `progsim run` (a --report FILE is added), or
// of another subcommand given with --command (a report for replay too).
// --timeline-regex adds --timeline FILE and matches the file's text.
// --no-temporary-files runs progsim with TMPDIR set to an empty directory
// and requires it to be empty again when progsim has ended.

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
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
    if (want_timeline) {
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

}  // namespace

int main(int argc, char** argv)
{
  std::string progsim, outcome;
  int expect_exit = -1, stdout_lines = -1;
  bool twice = false;
  std::vector<std::string> stdout_regex, stderr_regex, timeline_regex, checks, run_args;
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
    else if (a == "--timeline-regex") {
      timeline_regex.push_back(next());
      want_timeline = true;
    } else if (a == "--no-temporary-files") private_tmpdir = true;
    else if (a == "--stdout-lines") stdout_lines = std::stoi(next());
    else if (a == "--check") checks.push_back(next());
    else if (a == "--twice") twice = true;
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
  for (auto& r : stdout_regex)
    if (!std::regex_search(first.out, std::regex(r)))
      fail("stdout does not match /" + r + "/");
  for (auto& r : stderr_regex)
    if (!std::regex_search(first.err, std::regex(r)))
      fail("stderr does not match /" + r + "/");
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
  if (!outcome.empty() || !checks.empty()) {
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
  std::cout << (failures ? "FAILED" : "PASSED") << "\n";
  return failures ? 1 : 0;
}
