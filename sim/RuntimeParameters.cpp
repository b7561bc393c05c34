#include "sim/RuntimeParameters.hpp"

#include "sim/Config.hpp"

namespace progsim::sim {

void register_runtime_parameters(Config& config, RuntimeParameters& p)
{
  config.add("call-cost", p.call_cost, {1e-12, 1}, "s",
             "CPU time charged for every MPI call, MPI_Wtime included (a real MPI call costs tens of ns); "
             "never 0, so that a loop of MPI calls (polling MPI_Wtime or MPI_Test) lets simulated time pass");
  config.add("time-quantum", p.time_quantum, {0, 1}, "s",
             "small per-call costs are accumulated up to this much before being executed on the host "
             "(exact: a rank is executed before it next interacts)");
  config.add("observation-lag", p.observation_lag, {0, 1}, "s",
             "sends, receives, waits and collectives leave their CPU costs deferred (what other ranks see of "
             "them is stamped with the rank's own clock) while the rank is at most this much ahead of the "
             "simulation: what they find already arrived may then be up to this much old (0: exact, every "
             "look at arrivals first executes the rank's costs; docs/design/time.md)");
  config.add("user-time", p.user_time, {"zero", "measured"},
             "cost of user code between MPI calls: zero (deterministic) or the measured host CPU time "
             "(non-deterministic, marked in the report)");
  config.add("stack-size", p.stack_size_kib, {64, 1048576}, "KiB", "stack of each rank's coroutine");
  config.add("guard-pages", p.guard_pages, {-1, 1024}, "pages",
             "guard pages below each rank stack to catch overflows; -1: on below 4096 ranks, off above "
             "(guards cost memory mappings)");
  config.add("memory-watch", p.memory_watch,
             "trap loads and stores to watched memory (windows, progsim_watch_memory) so that busy-wait loops "
             "let simulated time pass; off: watching does nothing (e.g. under a debugger)");
  config.add("memory-poll-repeats", p.memory_poll_repeats, {1, 1e9}, "reads",
             "unchanged re-reads of watched memory by one instruction, with no MPI call between, after which "
             "the rank blocks until the next write to watched memory");
  config.add("watchdog", p.watchdog, {1e-3, 1e6, true}, "s",
             "host CPU time a rank may run user code without an MPI call or a watched-memory access before "
             "the run ends as stuck (0: off); such a run is marked non-deterministic");
  config.add("memory-watch-arm", p.memory_watch_arm, {1e-3, 1e6, true}, "s",
             "host CPU time a rank may run user code without an MPI call or a watched-memory access before "
             "the lazily watched memory (large or heap windows, see window-watch) is watched too, so that a "
             "loop polling it blocks; 0: never (needs the watchdog on). A run where this happened is marked "
             "non-deterministic");
  config.add("otf2-compute-scale", p.otf2_compute_scale, {0, 1e6}, "",
             "progsim replay of an OTF2 archive: the time measured between two MPI calls of a rank is replayed "
             "as computation of this many times its length (0: none; e.g. 0.5 for a CPU twice as fast)");
}

}  // namespace progsim::sim
