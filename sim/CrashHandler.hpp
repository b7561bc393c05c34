// Turns a fatal signal in a rank (segfault, abort(), ...) into a diagnostic
// naming the rank, its MPI call and the simulated time, flushes the ranks'
// output and the report, and exits with 128+signal. The run cannot go on:
// the faulting coroutine's state is lost.
#pragma once

#include <csignal>

namespace progsim::sim {

class Simulation;

class CrashHandler {
public:
  static void install(Simulation& simulation);
  static void uninstall();
  // Whether SIG is one of the handler's signals while a run goes on (the
  // faults, and the others whose default action ends a process).
  static bool handles(int sig);
  // Whether ACTION is the handler.
  static bool is_handler(const struct sigaction& action);
  // Installs the handler for SIG again: for a rank, the default action of a
  // signal that ends a process is a crash, reported.
  static void take_back(int sig);
};

}  // namespace progsim::sim
