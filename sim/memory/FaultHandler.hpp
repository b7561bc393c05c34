// Makes accesses to watched (protected) pages work and tells the simulator
// about them.
//
// SIGSEGV on a watched page: open the page and single-step the faulting
// instruction (trap flag). SIGTRAP after the step: protect the page again,
// note a write (the watch's generation), and, if the access hit a watched
// range from user code, divert the rank into the trampoline so the
// simulator sees it in normal context. Faults the table does not explain go
// to the handler installed before (progsim's CrashHandler, which reports the
// crash as before).
//
// Faults of the handler's own code (the rank and watch tables may share a
// page with a watched heap variable) just open the page; it is closed again
// at the end of the step.
#pragma once

namespace progsim::sim::memory {

class FaultHandler {
public:
  // `current_user_rank` runs in the SIGTRAP handler after each step that
  // touched a watched range: the rank to divert (it runs user code) or -1.
  // `owes_time(rank)`: whether the rank has CPU time to execute before it
  // may touch memory others can see (sim/RankClock; async-signal-safe).
  // `current_rank_clock`: the simulated clock of the rank whose code runs
  // now, in user code or inside MPI (-1 when none).
  static void install(int (*current_user_rank)(), bool (*owes_time)(int rank), double (*current_rank_clock)());
  static void uninstall();
  // Writes stepped while the trampoline could not be used (simulator code,
  // another actor) are pending until the simulator delivers them.
  static bool take_pending_write();

  // --- async-signal-safe, for other signal handlers (the watchdog) ---
  // An instruction is being single-stepped (pages are open).
  static bool stepping();
  // Marks a handler that reads simulator data: its faults on watched pages
  // only open them, and they close when it ends.
  struct Nested {
    Nested();
    ~Nested();
    Nested(const Nested&) = delete;
    Nested& operator=(const Nested&) = delete;
  };
};

}  // namespace progsim::sim::memory
