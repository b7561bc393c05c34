// The one thread that runs the simulator and every rank (ranks are
// coroutines of it). Threads that a program creates run beside it, in host
// time: they must never enter the simulator. One of them that has to end the
// run (an MPI call from a thread other than a rank's main thread) asks the
// simulator thread to do it, inside a rank, through the normal path.
#pragma once

namespace progsim::sim::memory {

class SimulatorThread {
public:
  // Called on the simulator thread when a run starts.
  static void adopt();
  // Whether the calling thread is the simulator thread (also true before any
  // run: there is nothing to protect then).
  static bool is_current();

  // From another thread: has the simulator thread run `action` inside a rank
  // as soon as it runs some rank's user code (the trampoline diverts it, as
  // for the watchdog) or a rank enters MPI (run_pending). `action` ends the
  // run, so this never returns: the calling thread waits for the process to
  // end. Only the first request counts; later ones just wait.
  [[noreturn]] static void end_run_from_other_thread(void (*action)());

  // On the simulator thread, in a rank: runs the action requested by another
  // thread, if any (it does not return then).
  static void run_pending();
};

}  // namespace progsim::sim::memory
