// Library functions the program calls that must act on simulated time or on
// the rank instead of the host process. progsim-cc links programs with
// `-Wl,--wrap=NAME` for each of them, so the program's calls land here while
// the simulator itself (not linked with --wrap) keeps calling the real ones.
//
// Outside a rank (e.g. a static constructor running while the program is
// loaded) they behave like the real functions.

#include "sim/OutputCapture.hpp"
#include "sim/CallScope.hpp"
#include "sim/ForkedChild.hpp"
#include "sim/ProgramThreads.hpp"
#include "sim/RankRuntime.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/SimulatorThread.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <ctime>
#include <sys/time.h>
#include <unistd.h>

using progsim::sim::Rank;
using progsim::sim::RankState;

namespace {

// A forked child runs outside the simulation: in host time.
Rank* rank_now()
{
  return progsim::sim::ForkedChild::active() ? nullptr : progsim::sim::calling_rank();
}

// exit() and its kin end the process that calls them: a forked child, a
// rank (its main thread, or another of its threads, as its process ends).
// Returns outside any run: the real function ends progsim then.
void end_process(int status, bool run_exit_handlers, const void* caller)
{
  using namespace progsim::sim;
  if (ForkedChild::active())
    ForkedChild::exit(status, run_exit_handlers);
  if (rank_now())
    throw RankExit{status, run_exit_handlers};
  Simulation* simulation = Simulation::current();
  if (simulation && simulation->running() && !memory::SimulatorThread::is_current())
    ProgramThreads::exit_rank(status, run_exit_handlers, reinterpret_cast<std::uintptr_t>(caller));
}

void simulated_sleep(Rank& rank, double seconds)
{
  progsim::sim::SimulatorEntry entry(rank.libc());
  RankState before = rank.state();
  rank.set_state(RankState::Sleeping);
  rank.clock().sleep(seconds);
  rank.set_state(before);
}

}  // namespace

extern "C" {

unsigned int __wrap_sleep(unsigned int seconds)
{
  Rank* rank = rank_now();
  if (!rank)
    return ::sleep(seconds);
  simulated_sleep(*rank, seconds);
  return 0;
}

int __wrap_usleep(useconds_t usec)
{
  Rank* rank = rank_now();
  if (!rank)
    return ::usleep(usec);
  simulated_sleep(*rank, 1e-6 * usec);
  return 0;
}

int __wrap_nanosleep(const struct timespec* req, struct timespec* rem)
{
  Rank* rank = rank_now();
  if (!rank)
    return ::nanosleep(req, rem);
  if (!req || req->tv_nsec < 0 || req->tv_nsec >= 1000000000) {
    errno = EINVAL;
    return -1;
  }
  simulated_sleep(*rank, static_cast<double>(req->tv_sec) + 1e-9 * static_cast<double>(req->tv_nsec));
  if (rem)
    *rem = timespec{0, 0};
  return 0;
}

// exit() in a rank ends that rank only (like a process exiting), not the
// simulator; whether that is legal depends on MPI_Finalize (Simulation).
void __wrap_exit(int status)
{
  end_process(status, true, __builtin_return_address(0));
  std::exit(status);
}

// _exit() and its aliases end the rank as well, without its exit handlers:
// reaching the real _exit would end progsim without a report.
void __wrap__exit(int status)
{
  end_process(status, false, __builtin_return_address(0));
  ::_exit(status);
}

void __wrap__Exit(int status)
{
  end_process(status, false, __builtin_return_address(0));
  ::_exit(status);
}

void __wrap_quick_exit(int status)
{
  end_process(status, false, __builtin_return_address(0));
  std::quick_exit(status);
}

// Clocks read by the program show the rank's simulated time, so that
// programs timing themselves with them stay deterministic.
int __wrap_gettimeofday(struct timeval* tv, void* tz)
{
  Rank* rank = rank_now();
  if (!rank)
    return ::gettimeofday(tv, static_cast<struct timezone*>(tz));
  ++rank->clock_reads;
  double now = rank->clock().now();
  tv->tv_sec = static_cast<time_t>(now);
  tv->tv_usec = static_cast<suseconds_t>((now - std::floor(now)) * 1e6);
  return 0;
}

int __wrap_clock_gettime(clockid_t clock, struct timespec* ts)
{
  Rank* rank = rank_now();
  if (rank)
    ++rank->clock_reads;
  if (!rank || clock == CLOCK_THREAD_CPUTIME_ID || clock == CLOCK_PROCESS_CPUTIME_ID)
    return ::clock_gettime(clock, ts);
  double now = rank->clock().now();
  ts->tv_sec = static_cast<time_t>(now);
  ts->tv_nsec = static_cast<long>((now - std::floor(now)) * 1e9);
  return 0;
}

time_t __wrap_time(time_t* t)
{
  Rank* rank = rank_now();
  if (!rank)
    return ::time(t);
  ++rank->clock_reads;
  auto now = static_cast<time_t>(rank->clock().now());
  if (t)
    *t = now;
  return now;
}

}  // extern "C"
