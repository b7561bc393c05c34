#include "progsim/CalibrationRuns.hpp"

#include "progsim/CalibrateProbe.hpp"
#include "progsim/ReportedRun.hpp"
#include "progsim/Subprocess.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <fstream>
#include <sstream>

namespace progsim::cli {


std::string build_probe(const std::vector<std::string>& compiler, const std::string& dir, const std::string& name)
{
  std::string source = dir + "/calibrate_probe.c";
  std::ofstream(source) << calibrate_file("calibrate_probe.c");
  std::string program = dir + "/" + name;
  std::vector<std::string> argv = compiler;
  argv.insert(argv.end(), {"-O2", source, "-o", program});
  std::string log = dir + "/" + name + ".build.log";
  if (compiler.empty() || run_subprocess(argv, log) != 0)
    throw sim::InputError{"building the probe program with '" + (compiler.empty() ? "" : compiler[0]) +
                          "' failed:\n" + file_text(log)};
  return program;
}

namespace {

std::vector<std::string> size_words(const std::vector<long long>& sizes)
{
  std::vector<std::string> words;
  for (long long s : sizes)
    words.push_back(std::to_string(s));
  return words;
}

class Campaign {
public:
  Campaign(const ProbeLauncher& launcher) : launcher_(launcher) {}

  // One run of the probe program; its "probe=" lines, prefixed with the transport.
  void run(const std::string& transport, const std::vector<std::string>& probe_args, double timeout = 0,
           long long flag_size = -1)
  {
    const std::vector<std::string>& command = transport == "shm" ? launcher_.shm_command : launcher_.network_command;
    std::string name = transport + "-" + std::to_string(++runs_);
    std::string output = launcher_.work_dir + "/" + name + ".out", log = launcher_.work_dir + "/" + name + ".log";
    std::vector<std::string> argv = command;
    bool deadlocked = false;
    if (launcher_.simulated) {
      // progsim run's report says whether the run deadlocked.
      std::vector<std::string> options(command.begin() + 2, command.end() - 1);
      std::vector<std::string> run_args = {command.back()};
      run_args.insert(run_args.end(), probe_args.begin(), probe_args.end());
      ReportedRun r = run_with_report(launcher_.work_dir, name, options, run_args);
      results_.parameters = r.report.value("parameters", nlohmann::json::object());
      output = r.output_file;
      log = r.log_file;
      std::string outcome = r.report.value("outcome", "error");
      deadlocked = outcome == "deadlock";
      if (outcome != "completed" && !(deadlocked && flag_size >= 0))
        throw sim::InputError{"progsim run of the probe " + probe_args[0] + " ended " + outcome + " (see " + log + ")"};
    } else {
      argv.insert(argv.end(), probe_args.begin(), probe_args.end());
      int status = run_subprocess(argv, log, output, timeout);
      deadlocked = status == kTimedOut && flag_size >= 0;
      if (status != 0 && !deadlocked)
        throw sim::InputError{"the probe " + probe_args[0] + " failed (exit status " + std::to_string(status) +
                              "): " + file_text(log) + "(" + argv[0] + ", log " + log + ")"};
    }
    if (deadlocked) {
      results_.lines.push_back(prefix(transport) + "probe=flag size=" + std::to_string(flag_size) + " completed=0");
      return;
    }
    std::istringstream in(file_text(output));
    std::string line;
    while (std::getline(in, line))
      if (line.rfind("probe=", 0) == 0)
        results_.lines.push_back(prefix(transport) + line);
  }

  const ProbeResults& results() const { return results_; }

private:
  std::string prefix(const std::string& transport) const
  {
    return "transport=" + transport + " " + (launcher_.progress.empty() ? "" : "progress=" + launcher_.progress + " ");
  }

  const ProbeLauncher& launcher_;
  ProbeResults results_;
  int runs_ = 0;
};

}  // namespace

ProbeResults run_probes(const ProbePlan& plan, const ProbeLauncher& launcher, const std::vector<std::string>& only)
{
  auto wanted = [&](const char* probe) {
    return only.empty() || std::find(only.begin(), only.end(), probe) != only.end();
  };
  Campaign campaign(launcher);
  for (const char* transport : {"shm", "network"}) {
    if (std::string(transport) == "network" && launcher.network_command.empty())
      continue;
    auto with = [](std::vector<std::string> head, const std::vector<std::string>& tail) {
      head.insert(head.end(), tail.begin(), tail.end());
      return head;
    };
    if (wanted("pingpong"))
      campaign.run(transport, with({"pingpong"}, size_words(plan.pingpong_sizes)));
    if (wanted("block"))
      campaign.run(transport, with({"block", std::to_string(plan.block_compute_us)}, size_words(plan.block_sizes)));
    if (wanted("overlap"))
      campaign.run(transport,
                   with({"overlap", std::to_string(plan.block_compute_us)}, size_words(plan.overlap_sizes)));
    // The flag lives in a shared-memory window: ranks of one host only. A
    // deadlock ends the run, so each size runs alone.
    if (wanted("flag") && std::string(transport) == "shm")
      for (long long size : plan.flag_sizes)
        campaign.run(transport, {"flag", std::to_string(plan.flag_compute_us), std::to_string(size)},
                     plan.flag_timeout_s, size);
  }
  return campaign.results();
}

}  // namespace progsim::cli
