#include "progsim/SweepPoint.hpp"

#include "progsim/ReportedRun.hpp"
#include "progsim/Subprocess.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <sys/stat.h>
#include <unistd.h>

namespace progsim::cli {

namespace {

void make_directories(const std::string& path)
{
  for (std::size_t slash = path.find('/', 1); ; slash = path.find('/', slash + 1)) {
    std::string prefix = path.substr(0, slash);
    if (::mkdir(prefix.c_str(), 0777) != 0 && errno != EEXIST)
      throw sim::InputError{prefix + ": cannot create the directory: " + std::strerror(errno)};
    if (slash == std::string::npos)
      return;
  }
}

// Seconds since the epoch of a file's last change, -1 when it is missing.
long long modified(const std::string& path)
{
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? static_cast<long long>(st.st_mtime) : -1;
}

bool is_cxx(const std::string& source)
{
  for (const char* ext : {".cpp", ".cc", ".cxx", ".C", ".c++"}) {
    std::size_t n = std::strlen(ext);
    if (source.size() > n && source.compare(source.size() - n, n, ext) == 0)
      return true;
  }
  return false;
}

}  // namespace

std::string point_dir(const SweepSpec& spec, const SweepPoint& point)
{
  return spec.output + "/points/" + point.id;
}

bool point_complete(const SweepSpec& spec, const SweepPoint& point)
{
  std::ifstream in(point_dir(spec, point) + "/point.json");
  if (!in)
    return false;
  nlohmann::ordered_json record = nlohmann::ordered_json::parse(in, nullptr, false);
  return record.is_object() && record.contains("parameters") && record["parameters"] == point.parameters;
}

void write_file_atomically(const std::string& path, const std::string& text)
{
  std::string temporary = path + ".tmp." + std::to_string(::getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    out << text;
    if (!out.flush())
      throw sim::InputError{temporary + ": cannot write"};
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0)
    throw sim::InputError{path + ": cannot write: " + std::strerror(errno)};
}

void compile_programs(const SweepSpec& spec)
{
  for (const SweepProgram& program : spec.programs) {
    if (program.source.empty() || modified(program.executable) >= modified(program.source))
      continue;
    make_directories(spec.output + "/programs");
    // Several Slurm tasks may compile at once: each to its own name, renamed.
    std::string temporary = program.executable + ".tmp." + std::to_string(::getpid());
    std::string log = program.executable + ".log";
    std::vector<std::string> argv = {self_dir() + (is_cxx(program.source) ? "/progsim-cxx" : "/progsim-cc")};
    argv.insert(argv.end(), program.flags.begin(), program.flags.end());
    argv.insert(argv.end(), {program.source, "-o", temporary});
    if (run_subprocess(argv, log) != 0) {
      ::unlink(temporary.c_str());
      throw sim::InputError{"cannot compile " + program.source + " (program " + program.name + "):\n" + file_text(log)};
    }
    if (std::rename(temporary.c_str(), program.executable.c_str()) != 0)
      throw sim::InputError{program.executable + ": cannot write: " + std::strerror(errno)};
  }
}

int run_point(const SweepSpec& spec, const SweepPoint& point)
{
  if (point_complete(spec, point))
    return 0;
  const SweepProgram& program = spec.programs[point.program];
  if (!program.source.empty() && modified(program.executable) < 0)
    compile_programs(spec);
  std::string dir = point_dir(spec, point);
  make_directories(dir);
  ::unlink((dir + "/point.json").c_str());  // an older record (other parameters) is not this point's
  std::vector<std::string> options = point_run_options(spec, point);
  options.insert(options.end(), {"--timeline", dir + "/timeline.json", "--timeline-format", "summary"});
  std::vector<std::string> run_args = {program.executable};
  run_args.insert(run_args.end(), program.args.begin(), program.args.end());
  ReportedRun run = run_with_report(dir, "run", options, run_args);
  if (run.exit_status == sim::kExitUsageError) {
    std::cerr << "progsim: point " << point.id << ":\n" << file_text(run.log_file);
    return sim::kExitUsageError;
  }
  if (run.report.value("outcome", "") == "interrupted" || run.exit_status == 128 + SIGINT ||
      run.exit_status == 128 + SIGTERM)
    return run.exit_status != 0 ? run.exit_status : 128 + SIGINT;
  nlohmann::ordered_json record = {{"id", point.id}, {"parameters", point.parameters}, {"exit_status", run.exit_status}};
  write_file_atomically(dir + "/point.json", record.dump(2) + "\n");
  return 0;
}

}  // namespace progsim::cli
