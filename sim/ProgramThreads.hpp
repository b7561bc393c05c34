// The program's own threads. progsim-cc wraps pthread_create so that each
// thread a rank creates knows its rank and where it was created: in an MPI
// job the thread belongs to the rank's process, so a crash or an exit() in it
// ends that rank, and the report names the rank and the creation site.
// Threads that the program's code did not create (a library's, e.g. OpenMP's
// or std::thread's from libstdc++) have no such record: privatization may
// still tell their rank from the code they run (program_copy_owner).
#pragma once

#include <cstdint>
#include <string>

namespace progsim::sim {

struct ThreadOrigin {
  int rank = -1;
  std::uintptr_t site = 0;  // inside the program's pthread_create call, or 0
};

class ProgramThreads {
public:
  // The calling thread's origin (inherited by the threads it creates), or
  // nullptr: the simulator thread, or a thread not created by the program's
  // code.
  static const ThreadOrigin* origin();
  // The rank of the calling thread (not the simulator thread): its origin's,
  // else the owner of the program copy holding `code` (an address of the
  // code it runs), else -1.
  static int rank_of_thread(std::uintptr_t code);
  // "main (app.c:31)" for the calling thread's creation site, or "".
  static std::string creation_site();

  // exit(), _exit(), _Exit() or quick_exit() in a thread of the program
  // during a run: ends the process of its rank, i.e. the rank, as that
  // rank's own call would (the rank's exit handlers run for exit()). The
  // calling thread never returns.
  [[noreturn]] static void exit_rank(int code, bool run_exit_handlers, std::uintptr_t caller);
};

}  // namespace progsim::sim
