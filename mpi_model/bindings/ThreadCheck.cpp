#include "bindings/ThreadCheck.hpp"

#include "MpiModel.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/ForkedChild.hpp"
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
struct OtherThreadCall {
  std::string message;
  int rank = -1;
};

// On the simulator thread, inside a rank: the normal end of a fatal error.
void end_run_for_other_thread(void* data)
{
  const auto& call = *static_cast<const OtherThreadCall*>(data);
  sim::Simulation& simulation = *sim::Simulation::current();
  std::string message = call.message;
  if (call.rank >= 0) {
    sim::Rank& rank = simulation.rank(call.rank);
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
  OtherThreadCall request_data;
  if (rank < 0) {
    request_data.message = what + " of a rank (which one is unknown without privatization), but progsim provides at most "
                       "MPI_THREAD_FUNNELED: only the main thread may call MPI (MPI-4.1 §11.6)";
  } else {
    const Process& process = MpiModel::instance().process(rank);
    bool sessions = sim::Simulation::current()->rank(rank).used_sessions;
    std::string provided = process.init_call ? std::string(", but ") + process.init_call + " provided " +
                                                   thread_level_name(process.thread_level)
                           : sessions ? ", but MPI_Session_init provides at most MPI_THREAD_FUNNELED"
                                      : ", before MPI_Init on the main thread";
    request_data.message = "rank " + std::to_string(rank) + ": " + what + provided + " (MPI-4.1 §11.6)";
  }
  request_data.rank = rank;
  sim::memory::ThreadRequest request;
  request.action = &end_run_for_other_thread;
  request.data = &request_data;
  sim::memory::SimulatorThread::hand_over(request);
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
  if (sim::ForkedChild::active())  // not an MPI process
    sim::ForkedChild::end_at_mpi_call(call, reinterpret_cast<std::uintptr_t>(caller));
  if (!sim::memory::SimulatorThread::is_current())
    called_from_other_thread(call, caller);
  sim::Rank* rank = sim::calling_rank();
  // Another thread's call may have found this thread inside the simulator;
  // the first rank to enter MPI after it ends the run.
  if (rank)
    sim::memory::SimulatorThread::run_pending(rank->id());
  return rank;
}

sim::Rank* calling_rank_any_thread()
{
  return sim::memory::SimulatorThread::is_current() ? sim::calling_rank() : nullptr;
}

}  // namespace progsim::mpi
