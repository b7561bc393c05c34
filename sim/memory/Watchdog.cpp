#include "sim/memory/Watchdog.hpp"

#include "sim/memory/AllocatorCalls.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/FaultHandler.hpp"
#include "sim/memory/MemoryWatch.hpp"
#include "sim/memory/Trampoline.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <csignal>
#include <ctime>
#include <sys/syscall.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>

namespace progsim::sim::memory {

namespace {

Simulation* g_simulation = nullptr;
double g_limit = 0;
double g_arm = 0;
double g_tick = 0;
timer_t g_timer{};
bool g_running = false;
bool g_timer_created = false;
struct sigaction g_previous {};

// The rank the last ticks found in user code, what it had done by then, and
// for how long it has done nothing else.
int g_rank = -1;
std::uint64_t g_activity = 0;
double g_spent = 0;
// The next tick is a retry armed 1 ms of CPU after a tick that found the
// rank in the sanitizer runtime (retry_soon).
bool g_retrying = false;
constexpr double kRetrySeconds = 0.001;

// Under ASan no wrapper counts the allocator's depth, so nothing raises a
// tick as the rank leaves it: the timer ticks 1 ms of CPU later instead
// (timer_settime is async-signal-safe), then every g_tick again.
void retry_soon()
{
  if (!g_timer_created)
    return;
  itimerspec spec{};
  spec.it_value.tv_nsec = static_cast<long>(kRetrySeconds * 1e9);
  spec.it_interval.tv_sec = static_cast<time_t>(g_tick);
  spec.it_interval.tv_nsec = static_cast<long>((g_tick - static_cast<double>(spec.it_interval.tv_sec)) * 1e9);
  if (::timer_settime(g_timer, 0, &spec, nullptr) == 0)
    g_retrying = true;
}

void on_tick(int, siginfo_t* info, void* context)
{
  if (!g_running || FaultHandler::stepping())
    return;
  // A timer tick measured g_tick of CPU time; the tick raised when the rank
  // left the allocator (below) measured nothing.
  double measured = info->si_code == SI_TIMER ? (g_retrying ? kRetrySeconds : g_tick) : 0;
  if (info->si_code == SI_TIMER)
    g_retrying = false;
  FaultHandler::Nested nested;  // rank data may share a page with watched memory
  // Inside malloc the rank runs its own code (the allocator's) but cannot be
  // diverted (AllocatorCalls.hpp): its time counts all the same. Under ASan
  // the allocator is the sanitizer runtime's (Trampoline.cpp).
  bool sanitizer = Trampoline::in_sanitizer_runtime(context);
  bool allocating = AllocatorCalls::inside() || sanitizer;
  int rank = allocating || Trampoline::can_divert(context) ? MemoryWatch::current_user_rank() : -1;
  if (rank < 0) {
    g_rank = -1;
    return;
  }
  std::uint64_t activity = MemoryWatch::activity(rank);
  if (rank != g_rank || activity != g_activity) {
    g_rank = rank;
    g_activity = activity;
    g_spent = 0;
    return;
  }
  g_spent += measured;
  bool arm = g_arm > 0 && g_spent + 1e-9 >= g_arm && MemoryWatch::lazy_watches_unarmed();
  if (!arm && g_spent + 1e-9 < g_limit)
    return;
  if (allocating) {
    // A later timer tick would most likely find it there again (the signal
    // is delivered when the allocator's own system calls return): tick again
    // as it leaves.
    AllocatorCalls::signal_on_exit(SIGPROF);
    if (sanitizer)
      retry_soon();
    return;
  }
  TrapRequest request;
  request.pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  request.rank = rank;
  if (arm) {
    // The trap counts as activity: the stuck limit starts again.
    request.kind = TrapKind::ArmLazyWatches;
    Trampoline::divert(context, request);
    return;
  }
  g_running = false;  // fires once
  request.kind = TrapKind::Watchdog;
  Trampoline::divert(context, request);
}

}  // namespace

void Watchdog::start(Simulation& simulation, double limit_seconds, double arm_seconds)
{
  g_simulation = &simulation;
  g_limit = limit_seconds;
  g_arm = arm_seconds;
  // A few ticks per limit, at least two per second of CPU, and one per
  // arming delay.
  g_tick = std::min(limit_seconds / 4, 0.5);
  if (arm_seconds > 0)
    g_tick = std::min(g_tick, arm_seconds);
  g_rank = -1;
  g_spent = 0;
  struct sigaction action {};
  action.sa_sigaction = on_tick;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&action.sa_mask);
  ::sigaction(SIGPROF, &action, &g_previous);
  // CPU time of this thread only (the one running every rank), delivered to
  // it: helper threads neither count nor receive the ticks.
  sigevent event{};
  event.sigev_notify = SIGEV_THREAD_ID;
  event.sigev_signo = SIGPROF;
  event._sigev_un._tid = static_cast<pid_t>(::syscall(SYS_gettid));
  if (::timer_create(CLOCK_THREAD_CPUTIME_ID, &event, &g_timer) != 0) {
    diag("the watchdog is off: timer_create failed");
    return;
  }
  g_timer_created = true;
  itimerspec spec{};
  spec.it_value.tv_sec = static_cast<time_t>(g_tick);
  spec.it_value.tv_nsec = static_cast<long>((g_tick - static_cast<double>(spec.it_value.tv_sec)) * 1e9);
  spec.it_interval = spec.it_value;
  ::timer_settime(g_timer, 0, &spec, nullptr);
  g_running = true;
}

void Watchdog::stop()
{
  if (!g_simulation)
    return;
  if (g_timer_created)
    ::timer_delete(g_timer);
  g_timer_created = false;
  g_running = false;
  // A tick still owed for a rank's leaving the allocator would meet the
  // previous handler (by default SIGPROF ends the process).
  AllocatorCalls::signal_on_exit(0);
  ::sigaction(SIGPROF, &g_previous, nullptr);
  g_simulation = nullptr;
}

void Watchdog::fire(int rank_id, std::uintptr_t pc)
{
  Simulation& simulation = *g_simulation;
  Rank& rank = simulation.rank(rank_id);
  std::string where = describe_rank_location(pc, simulation.options().program);
  char limit[32];
  std::snprintf(limit, sizeof limit, "%g", g_limit);
  rank.set_state(RankState::Failed);
  rank.end_reason = "stuck in user code at " + where;
  simulation.mark_nondeterministic();
  simulation.end_run(Outcome::Stuck,
                     "rank " + std::to_string(rank_id) + " is stuck at " + format_time(rank.clock().now()) +
                         ": it ran user code for " + limit +
                         " s of host CPU time without an MPI call or an access to watched memory, at " + where +
                         " (watchdog; --cfg watchdog=SECONDS changes the limit)",
                     kExitStuck);
}

}  // namespace progsim::sim::memory
