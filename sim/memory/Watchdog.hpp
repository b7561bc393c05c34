// The host CPU-time watchdog: a rank that spins in user code outside watched
// memory never yields, so without it the simulator would hang.
//
// A process CPU-time timer (SIGPROF) ticks a few times per limit. Each tick
// looks at the rank running user code; while the same rank keeps running
// without an MPI call or a watched-memory trap, its CPU time accumulates.
// Beyond the limit the rank is diverted into the trampoline (like a memory
// trap), where the run ends as `stuck`, naming the rank and where it spun.
// Much earlier (memory-watch-arm) it is diverted to arm the lazy watches, in
// case it spins on lazily watched memory.
// Host time decides this, so such a run is marked non-deterministic.
#pragma once

#include <cstdint>

namespace progsim::sim {
class Simulation;
}

namespace progsim::sim::memory {

class Watchdog {
public:
  // arm_seconds > 0: after that much CPU time the rank is diverted once to
  // arm the lazily watched memory (MemoryWatch::watch_lazily).
  static void start(Simulation& simulation, double limit_seconds, double arm_seconds);
  static void stop();
  // In the diverted rank: ends the run (does not return).
  [[noreturn]] static void fire(int rank, std::uintptr_t pc);
};

}  // namespace progsim::sim::memory
