// A child process forked by a rank (fork(), wrapped by progsim-cc).
//
// In an MPI job such a child is not an MPI process: MPICH allows fork
// followed by exec, Open MPI warns that the child must not use MPI. It may
// run plain code, exec another program or exit. In progsim the child is a
// copy of the whole simulator, which must not go on with the run (the parent
// does) nor write the run's report, timeline, trace or temporary files. So
// in the child: sleep and the clocks are the host's; exit(), _exit() and a
// return from main end the child process with that status (exit() runs the
// rank's exit handlers and flushes the C streams); the rank's memory is not
// watched; an MPI call, or anything else that would go on with the
// simulation, ends the child with a message naming the rank, the fork's and
// the call's lines (status 1); a crash is named and the child then dies of
// its signal, as the parent's waitpid expects.
#pragma once

#include <cstdint>
#include <string>

namespace progsim::sim {

class ForkedChild {
public:
  // Whether this process is a child that a rank forked.
  static bool active();

  // The child called MPI procedure `call` from `caller` (its return address).
  [[noreturn]] static void end_at_mpi_call(const char* call, std::uintptr_t caller);
  // The child would go on with the simulation (end the run, write its outputs).
  [[noreturn]] static void end_instead_of(const std::string& what);
  // exit() (with the rank's exit handlers), _exit() or quick_exit() in the child.
  [[noreturn]] static void exit(int code, bool run_exit_handlers);
  // The crash handler in the child: says so, then lets the signal's default
  // action end the child (when the handler returns).
  static void died_of(int sig, const char* signal);
};

}  // namespace progsim::sim
