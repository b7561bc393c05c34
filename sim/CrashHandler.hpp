// Turns a fatal signal in a rank (segfault, abort(), ...) into a diagnostic
// naming the rank, its MPI call and the simulated time, flushes the ranks'
// output and the report, and exits with 128+signal. The run cannot go on:
// the faulting coroutine's state is lost.
#pragma once

namespace progsim::sim {

class Simulation;

class CrashHandler {
public:
  static void install(Simulation& simulation);
  static void uninstall();
};

}  // namespace progsim::sim
