// The one thread that runs the simulator and every rank (ranks are
// coroutines of it). Threads that a program creates run beside it, in host
// time: they must never enter the simulator. One of them that has to end the
// run or its rank (an MPI call from a thread other than a rank's main
// thread, a crash, exit()) asks the simulator thread to do it, inside a
// rank, through the normal path. progsim starts no thread of its own
// (SimGrid runs its actors as coroutines of this thread, the watchdog's and
// the interruption's timers signal this thread): every other thread is the program's, or a
// library's that the program uses.
#pragma once

#include <atomic>

namespace progsim::sim::memory {

// What another thread asks: `action(data)` run by the simulator thread inside
// rank `rank` (-1: any rank). The asking thread never returns, so `data` may
// live on its stack.
struct ThreadRequest {
  void (*action)(void* data) = nullptr;
  void* data = nullptr;
  int rank = -1;
  std::atomic<bool> taken{false};
};

class SimulatorThread {
public:
  // Called on the simulator thread when a run starts.
  static void adopt();
  // Whether the calling thread is the simulator thread (also true before any
  // run: there is nothing to protect then).
  static bool is_current();

  // From another thread: has the simulator thread run the request's action
  // inside its rank as soon as that rank runs user code (the trampoline
  // diverts it, as for the watchdog) or enters MPI (run_pending). The action
  // ends the run or its rank, so this never returns: the calling thread waits
  // for the process to end (as a thread of a process that exits). Requests
  // of several threads are served one after the other.
  [[noreturn]] static void hand_over(ThreadRequest& request);

  // On the simulator thread, in `rank`: runs the action requested by another
  // thread for it, if any (it does not return then).
  static void run_pending(int rank);
};

}  // namespace progsim::sim::memory
