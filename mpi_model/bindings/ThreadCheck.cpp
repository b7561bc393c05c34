#include "bindings/ThreadCheck.hpp"

#include "MpiModel.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/ProgramImage.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/SimulatorThread.hpp"

#include <mpi.h>

#include <cstdint>
#include <string>

namespace progsim::mpi {

namespace {

// Written by the offending thread before it hands over to the simulator
// thread (SimulatorThread orders the two), read there.
std::string g_message;
int g_rank = -1;

// On the simulator thread, inside a rank: the normal end of a fatal error.
void end_run_for_other_thread()
{
  sim::Simulation& simulation = *sim::Simulation::current();
  std::string message = g_message;
  if (g_rank >= 0) {
    sim::Rank& rank = simulation.rank(g_rank);
    rank.set_state(sim::RankState::Failed);
    rank.end_reason = "called MPI from a thread other than its main thread";
    message += " at " + sim::format_time(rank.clock().now());
  }
  simulation.end_run(sim::Outcome::Aborted, message, 1);
}

[[noreturn]] void called_from_other_thread(const char* call, const void* caller)
{
  // With privatization each rank runs its own copy of the program's code:
  // the call site (found by unwinding when `caller` is a binding helper)
  // tells whose thread this is.
  int rank = sim::program_copy_owner(sim::memory::program_call_site(reinterpret_cast<std::uintptr_t>(caller)));
  std::string what = std::string(call) + " called from a thread other than the main thread";
  if (rank < 0) {
    g_message = what + " of a rank (which one is unknown without privatization), but progsim provides at most "
                       "MPI_THREAD_FUNNELED: only the main thread may call MPI (MPI-4.1 §11.6)";
  } else {
    const Process& process = MpiModel::instance().process(rank);
    bool sessions = sim::Simulation::current()->rank(rank).used_sessions;
    std::string provided = process.init_call ? std::string(", but ") + process.init_call + " provided " +
                                                   thread_level_name(process.thread_level)
                           : sessions ? ", but MPI_Session_init provides at most MPI_THREAD_FUNNELED"
                                      : ", before MPI_Init on the main thread";
    g_message = "rank " + std::to_string(rank) + ": " + what + provided + " (MPI-4.1 §11.6)";
  }
  g_rank = rank;
  sim::memory::SimulatorThread::end_run_from_other_thread(&end_run_for_other_thread);
}

}  // namespace

const char* thread_level_name(int level)
{
  switch (level) {
    case MPI_THREAD_SINGLE: return "MPI_THREAD_SINGLE";
    case MPI_THREAD_FUNNELED: return "MPI_THREAD_FUNNELED";
    case MPI_THREAD_SERIALIZED: return "MPI_THREAD_SERIALIZED";
    default: return "MPI_THREAD_MULTIPLE";
  }
}

sim::Rank* checked_calling_rank(const char* call, const void* caller)
{
  if (!sim::memory::SimulatorThread::is_current())
    called_from_other_thread(call, caller);
  sim::Rank* rank = sim::calling_rank();
  // Another thread's call may have found this thread inside the simulator;
  // the first rank to enter MPI after it ends the run.
  if (rank)
    sim::memory::SimulatorThread::run_pending();
  return rank;
}

sim::Rank* calling_rank_any_thread()
{
  return sim::memory::SimulatorThread::is_current() ? sim::calling_rank() : nullptr;
}

}  // namespace progsim::mpi
