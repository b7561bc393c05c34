// SIGINT and SIGTERM sent to progsim (Ctrl-C, a batch system or a test
// harness ending the job), any other signal that ends a process sent by
// another process (SIGHUP, SIGUSR1, ...: the CrashHandler passes it here),
// and the host time limit (--host-time-limit, MPIEXEC_TIMEOUT): a job limit
// on wall-clock time, as mpiexec's, which ends the run as a signal would
// (SIGALRM, exit status 142).
//
// During a simulation the handler only notes the signal: the run ends at
// the next safe point of a rank (Rank::set_state: entering MPI, blocking,
// going to sleep) through the run's ending path, with the outcome
// "interrupted", the report and the timeline written and exit status
// 128 + signal. If no rank reaches a safe point within a second of host
// time (a rank computing in user code), or at a second signal, the handler
// ends the run itself as the CrashHandler does. Outside a simulation
// (compare, examples) it passes the signal on to the progsim child it waits
// for, removes the temporary directories and exits with 128 + signal.
#pragma once

#include <csignal>
#include <string>
#include <sys/types.h>

namespace progsim::sim {

class Simulation;

class Interruption {
public:
  // Installed once by progsim's main, for every command.
  static void install();
  // The signal that asked the running simulation to end, or 0.
  static int pending();
  // The simulation the handler ends (nullptr: none is running).
  static void set_simulation(Simulation* simulation);
  // Ends the running simulation after `seconds` of host time, naming
  // `source` (the option or variable that asked for it).
  static void limit_host_time(double seconds, const std::string& source);
  // The child process a command waits for (0: none).
  static void set_child(pid_t child);
  // From a signal handler: notes `sig` for the next safe point (and arms the
  // grace period) as for SIGINT, if a simulation is running; false if none
  // is. The CrashHandler's way for another signal that ends a process
  // (SIGHUP, SIGUSR1, ...) sent by another process: ending the run inside
  // the handler could wait forever on the allocator's lock, held by the
  // code the signal interrupted (the report allocates).
  static bool end_at_next_safe_point(int sig);
  // A rank is at a safe point: ends the run if a signal asked for it.
  // Inline: every MPI call passes here, and a signal is rare.
  static void safe_point()
  {
    if (pending_signal_)
      end_at_safe_point();
  }
  // "interrupted by SIGINT at t=... s<where>; ...": the run's message.
  static std::string message(int sig, double time, const std::string& where);

  // The signal noted by the handler, 0 when none (written only by it).
  static inline volatile sig_atomic_t pending_signal_ = 0;

private:
  static void end_at_safe_point();
};

}  // namespace progsim::sim
