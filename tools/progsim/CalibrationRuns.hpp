// progsim calibrate's probe campaigns: the probe program
// (calibrate/calibrate_probe.c) built and run by the machine's real MPI, or
// by progsim with a calibrated platform and parameters. Both give the same
// lines, "transport=shm probe=... size=... key=value..." (CalibrationFit.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::cli {

// The sizes and compute phases each probe runs with.
struct ProbePlan {
  std::vector<long long> pingpong_sizes = {0, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304, 8388608};
  std::vector<long long> block_sizes = {1024, 2048, 4096, 8192, 16384, 32768, 65536, 131072, 262144, 1048576};
  std::vector<long long> overlap_sizes = {4194304};
  std::vector<long long> flag_sizes = {1024, 8192, 16384, 65536, 1048576};
  long long block_compute_us = 30000;
  long long flag_compute_us = 100000;
  double flag_timeout_s = 5;  // a real run of the flag probe not done by then deadlocked
};

// How one campaign runs the probe program with 2 ranks.
struct ProbeLauncher {
  // The probe program's argv before its own arguments, per transport:
  // {"mpirun", "-n", "2", "./probe"} or {"progsim", "run", ..., "./probe"}.
  std::vector<std::string> shm_command, network_command;  // network: empty when not probed
  bool simulated = false;  // progsim: a deadlock is the report's outcome, not a timeout
  // "async" when the MPI runs with its asynchronous progress on (calibrate
  // --async-progress): each line then says progress=async.
  std::string progress;
  std::string work_dir;    // logs and reports
};

// Compiles the probe program with `compiler` (words of the command) into
// DIR/NAME; throws sim::InputError with the compiler's output on failure.
std::string build_probe(const std::vector<std::string>& compiler, const std::string& dir, const std::string& name);

struct ProbeResults {
  std::vector<std::string> lines;
  nlohmann::json parameters;  // simulated: the model parameters of the runs (their report's)
};

// Runs every probe of `plan` (those named in `only`, when given) on each
// transport of `launcher`. Throws sim::InputError when a run fails (its log
// is named).
ProbeResults run_probes(const ProbePlan& plan, const ProbeLauncher& launcher, const std::vector<std::string>& only = {});


}  // namespace progsim::cli
