// SIGINT and SIGTERM sent to progsim (Ctrl-C, a batch system or a test
// harness ending the job), any other signal that ends a process sent by
// another process (SIGHUP, SIGUSR1, ...: the CrashHandler passes it here),
// and the host time limit (--host-time-limit, MPIEXEC_TIMEOUT): a job limit
// on wall-clock time, as mpiexec's, which ends the run as a signal would
// (SIGALRM, exit status 142).
//
// A signal handler interrupts arbitrary code: the program inside malloc or
// printf, progsim inside its own allocations. The report, the timeline and
// the message allocate and take stdio locks, so no handler here builds
// them; a handler only notes the signal and arms a timer (async-signal-safe
// calls only), and the run ends in normal context on the simulator thread:
//  1. the first signal is noted; the run ends at the next safe point of a
//     rank (Rank::set_state: entering MPI, blocking, going to sleep) through
//     the run's ending path (Simulation::end_run), naming that rank;
//  2. when no rank gets there within a second of host time (a rank
//     computing in user code), or at a second signal, the timer's handler,
//     on the simulator thread, diverts the rank that runs user code into
//     the trampoline (as the watchdog does: only outside the simulator,
//     SimGrid, the allocator and the sanitizer runtime; tried again every
//     millisecond), where Simulation::end_from_signal writes the report and
//     timeline from normal context;
//  3. if the run has not ended within 5 s of host time after that (the
//     simulator busy in its own code, or an ending that waits on a lock),
//     or at a third signal, the timer's handler ends the process with the
//     minimal report (MinimalEnding: outcome, status and message only).
// Every way keeps the outcome "interrupted", exit status 128 + signal and
// the removal of the temporary directories. A signal that reaches a thread
// the program created takes the same way (its handler only notes it; the
// timer's signal goes to the simulator thread). Outside a simulation
// (compare, examples) the handler passes the signal on to the progsim child
// it waits for, removes the temporary directories and exits with 128 +
// signal: system calls only.
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
  // The simulation the handler ends (nullptr: none is running). On the
  // simulator thread: its timer is created here (and deleted with nullptr).
  static void set_simulation(Simulation* simulation);
  // Ends the running simulation after `seconds` of host time, naming
  // `source` (the option or variable that asked for it).
  static void limit_host_time(double seconds, const std::string& source);
  // The child process a command waits for (0: none).
  static void set_child(pid_t child);
  // From a signal handler, for a signal that asks progsim to end (SIGINT,
  // SIGTERM; SIGALRM and the CrashHandler's SIGHUP, SIGUSR1, ... when sent
  // by another process): noted for the running simulation's next safe point
  // (the steps above), or, with no simulation running, the ending of a
  // command (does not return).
  static void from_outside(int sig);
  // Whether the signal was sent by another process (kill(1), a terminal's
  // hangup, tgkill(2) to one of progsim's threads), not raised by a rank
  // (raise, pthread_kill, its timers) nor by the kernel for something a rank
  // did. Async-signal-safe.
  static bool sent_from_outside(const siginfo_t* info);
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
