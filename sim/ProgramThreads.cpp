#include "sim/ProgramThreads.hpp"

#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/ProgramImage.hpp"
#include "sim/RankRuntime.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/SimulatorThread.hpp"

#include <simgrid/s4u/Actor.hpp>

#include <pthread.h>
#include <sys/mman.h>
#include <unistd.h>

#include <csignal>
#include <string>

namespace progsim::sim {

namespace {

thread_local ThreadOrigin t_origin;  // rank -1 and site 0: none recorded

// The crash handler runs on the faulting thread's alternate stack, so that a
// thread's stack overflow is reported too. Released when the thread ends.
constexpr std::size_t kAltStackSize = 256 * 1024;
struct AlternateStack {
  void* memory = nullptr;
  void install()
  {
    void* p = ::mmap(nullptr, kAltStackSize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
      return;
    stack_t ss{};
    ss.ss_sp = p;
    ss.ss_size = kAltStackSize;
    if (::sigaltstack(&ss, nullptr) == 0)
      memory = p;
    else
      ::munmap(p, kAltStackSize);
  }
  ~AlternateStack()
  {
    if (!memory)
      return;
    stack_t off{};
    off.ss_flags = SS_DISABLE;
    ::sigaltstack(&off, nullptr);
    ::munmap(memory, kAltStackSize);
  }
};
thread_local AlternateStack t_alternate_stack;

struct ThreadStart {
  void* (*start)(void*);
  void* arg;
  ThreadOrigin origin;
};

void* start_program_thread(void* data)
{
  ThreadStart start = *static_cast<ThreadStart*>(data);
  delete static_cast<ThreadStart*>(data);
  t_origin = start.origin;
  t_alternate_stack.install();
  return start.start(start.arg);
}

struct ThreadExit {
  int code;
  bool run_exit_handlers;
  std::string message;  // when the rank is unknown
};

// On the simulator thread, in the thread's rank: the rank's own exit. Ended
// here rather than by throwing RankExit to main, and a run that ends with
// it (no MPI_Finalize) ends without unwinding the ranks: the rank's stack
// may hold a C++ std::thread being joined, whose destructor would call
// std::terminate as the stack unwinds. A rank that had finalized is unwound
// (the run goes on).
void exit_in_rank(void* data)
{
  const auto& exit = *static_cast<const ThreadExit*>(data);
  Simulation& simulation = *Simulation::current();
  Rank* rank = simulation.current_rank();
  simulation.end_without_unwinding();
  end_rank(simulation, *rank, exit.code, exit.run_exit_handlers);
  simgrid::s4u::this_actor::exit();
}

// On the simulator thread, in any rank: which process ends is unknown. The
// ranks are not unwound (see exit_in_rank).
void end_run_for_unknown_rank(void* data)
{
  const auto& exit = *static_cast<const ThreadExit*>(data);
  Simulation& simulation = *Simulation::current();
  simulation.end_from_signal(Outcome::Aborted, exit.message + " at " + format_time(simulation.now()),
                             failure_exit_status(exit.code));
}

}  // namespace

const ThreadOrigin* ProgramThreads::origin()
{
  return t_origin.rank >= 0 ? &t_origin : nullptr;
}

int ProgramThreads::rank_of_thread(std::uintptr_t code)
{
  if (const ThreadOrigin* o = origin())
    return o->rank;
  return program_copy_owner(code);
}

std::string ProgramThreads::creation_site()
{
  const ThreadOrigin* o = origin();
  Simulation* simulation = Simulation::current();
  if (!o || !o->site || !simulation)
    return "";
  return memory::describe_program_location(o->site, simulation->options().program);
}

void ProgramThreads::exit_rank(int code, bool run_exit_handlers, std::uintptr_t caller)
{
  ThreadExit exit{code, run_exit_handlers, ""};
  memory::ThreadRequest request;
  request.data = &exit;
  request.rank = rank_of_thread(caller);
  if (request.rank >= 0) {
    RankState state = Simulation::current()->rank(request.rank).state();
    if (state == RankState::Finished || state == RankState::Failed)
      for (;;)
        ::pause();  // the rank's process has ended already, and this thread with it
    request.action = &exit_in_rank;
  } else {
    exit.message = "a thread of the program not created by its own pthread_create call (so of an unknown rank) "
                   "called exit(" + std::to_string(code) + ")";
    request.action = &end_run_for_unknown_rank;
  }
  memory::SimulatorThread::hand_over(request);
}

}  // namespace progsim::sim

extern "C" {

// The program's pthread_create: the new thread learns its rank (the calling
// rank, or the calling thread's own rank) and where it was created.
int __wrap_pthread_create(pthread_t* thread, const pthread_attr_t* attr, void* (*start)(void*), void* arg)
{
  using namespace progsim::sim;
  ThreadOrigin origin;
  if (memory::SimulatorThread::is_current()) {
    if (Rank* rank = calling_rank())
      origin.rank = rank->id();
  } else if (const ThreadOrigin* parent = ProgramThreads::origin()) {
    origin.rank = parent->rank;
  }
  // progsim's own code is not linked with --wrap: this is the real one.
  if (origin.rank < 0)
    return ::pthread_create(thread, attr, start, arg);
  origin.site = memory::program_call_site(reinterpret_cast<std::uintptr_t>(__builtin_return_address(0)));
  auto* data = new ThreadStart{start, arg, origin};
  int error = ::pthread_create(thread, attr, &start_program_thread, data);
  if (error != 0)
    delete data;
  return error;
}

}  // extern "C"
