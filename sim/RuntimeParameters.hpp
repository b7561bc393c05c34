// Tunables of the rank runtime (costs of being inside MPI, stacks, user time).
// Registered in the --cfg table by Simulation; defaults documented there.
#pragma once

#include <string>

namespace progsim::sim {

class Config;

struct RuntimeParameters {
  double call_cost = 50e-9;       // CPU seconds charged for every MPI call (MPI_Wtime included)
  double time_quantum = 100e-6;   // local CPU debt flushed to SimGrid beyond this
  double observation_lag = 1e-6;  // how far behind a rank's clock a sending/receiving call may look
  std::string user_time = "zero"; // "zero" (deterministic) or "measured" (host CPU time)
  long long stack_size_kib = 8192;
  long long guard_pages = -1;     // <0: automatic (on below 4096 ranks)
  bool measure_user_time = false; // derived: user_time == "measured"
  bool memory_watch = true;        // trap accesses to watched memory (sim/memory)
  long long memory_poll_repeats = 1; // unchanged re-reads at one instruction before a poll blocks
  double watchdog = 30;            // host CPU seconds of user code without MPI before `stuck`; 0: off
  double memory_watch_arm = 0.05;  // host CPU seconds of such user code before lazy watches are armed; 0: never
  double otf2_compute_scale = 1.0; // progsim replay of an OTF2 archive: measured time between MPI calls x this
};

// Declares the fields above in the --cfg table, with units and meanings.
void register_runtime_parameters(Config& config, RuntimeParameters& parameters);

}  // namespace progsim::sim
