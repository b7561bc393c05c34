#include "sim/Interruption.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/ForkedChild.hpp"
#include "sim/MinimalEnding.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/Simulation.hpp"
#include "sim/TemporaryDirectory.hpp"
#include "sim/memory/FaultHandler.hpp"
#include "sim/memory/MemoryWatch.hpp"
#include "sim/memory/Trampoline.hpp"

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <ucontext.h>
#include <unistd.h>

namespace progsim::sim {

namespace {

Simulation* volatile g_simulation = nullptr;
volatile pid_t g_child = 0;

// Host time a rank may take to reach a safe point after the first signal
// (wall-clock time decides only when an interrupted run stops, never
// anything in a run that was not interrupted).
constexpr long long kGraceNs = 1000000000LL;
// Host time the simulator has to end the run once asked (the rank diverted,
// or the run already on its own ending path) before the minimal ending.
constexpr long long kEndingNs = 5000000000LL;
// Between two attempts to divert the rank that runs user code.
constexpr long long kRetryNs = 1000000LL;

// Where the ending of an interrupted run stands. A handler on any thread
// moves it to kNoted (the first signal); only the timer's handler, on the
// simulator thread with SIGALRM masked while it runs, moves it further.
enum Stage : int {
  kIdle,    // nothing asked
  kLimit,   // the host time limit is armed on the timer
  kNoted,   // a signal is noted: the grace period runs, the next safe point ends the run
  kAsking,  // the grace period is over, or a second signal came: divert the rank in user code
  kEnding,  // the rank was diverted, or the run ends on its own path: minimal ending at the deadline
};
std::atomic<int> g_stage{kIdle};
std::atomic<int> g_signals{0};  // signals noted during the run
std::atomic<bool> g_limit_reached{false};
std::atomic<long long> g_grace_end{0};  // monotonic ns
long long g_deadline = 0;               // monotonic ns; the timer's handler's only

// One-shot CLOCK_MONOTONIC timer whose SIGALRM goes to the simulator thread
// (SIGEV_THREAD_ID), never to a thread of the program.
timer_t g_timer{};
std::atomic<bool> g_timer_created{false};

std::string g_host_limit_text;    // "host time limit of 1 s (--host-time-limit) reached"
char g_host_limit_words[192];     // the same for the minimal ending, which must not allocate

const char* signal_name(int sig)
{
  static char name[32];
  const char* abbreviation = ::sigabbrev_np(sig);  // "INT", "HUP": glibc's table, no allocation
  if (!abbreviation)
    return "a signal";
  std::snprintf(name, sizeof name, "SIG%s", abbreviation);
  return name;
}

// --- async-signal-safe from here to the end of the namespace ---

long long monotonic_ns()
{
  timespec now{};
  ::clock_gettime(CLOCK_MONOTONIC, &now);
  return static_cast<long long>(now.tv_sec) * 1000000000LL + now.tv_nsec;
}

// Arms the timer to fire once, `ns` from now (timer_settime is
// async-signal-safe; at least 1 ns, as 0 would disarm it).
void arm_in(long long ns)
{
  if (!g_timer_created.load())
    return;
  ns = ns < 1 ? 1 : ns;
  itimerspec spec{};
  spec.it_value.tv_sec = static_cast<time_t>(ns / 1000000000LL);
  spec.it_value.tv_nsec = static_cast<long>(ns % 1000000000LL);
  ::timer_settime(g_timer, 0, &spec, nullptr);
}

// Notes `sig` for the running simulation: the first signal starts the grace
// period, a later one has the timer's handler act at once. False when no
// simulation runs.
bool note(int sig)
{
  if (!g_simulation)
    return false;
  int signals = g_signals.fetch_add(1) + 1;
  if (signals == 1) {
    Interruption::pending_signal_ = sig;
    g_grace_end.store(monotonic_ns() + kGraceNs);
    g_stage.store(kNoted);
    arm_in(kGraceNs);
  } else {
    arm_in(1);
  }
  return true;
}

// No simulation runs (compare, examples, before or after a run): the
// command ends; the child it waits for writes its own report.
[[noreturn]] void end_command(int sig)
{
  if (pid_t child = g_child) {
    ::kill(child, sig);
    ::waitpid(child, nullptr, 0);
  }
  TemporaryDirectory::remove_all();
  ::_exit(128 + sig);
}

// The last resort (MinimalEnding), from the timer's handler: `why` says
// why the report has only the outcome and the message.
[[noreturn]] void end_minimally(const Simulation* simulation, const char* why)
{
  int sig = Interruption::pending_signal_;
  static char message[512];
  static char line[768];
  if (sig == SIGALRM && g_limit_reached.load())
    std::snprintf(message, sizeof message, "%s at t=%.9f s", g_host_limit_words, simulation->now());
  else
    std::snprintf(message, sizeof message, "interrupted by %s at t=%.9f s", signal_name(sig), simulation->now());
  std::snprintf(line, sizeof line, "%s: the report has the outcome and this message only", why);
  MinimalEnding::end(simulation, "interrupted", 128 + sig, simulation->now(), message, true, line, why);
}

bool on_alternate_stack()
{
  stack_t current{};
  return ::sigaltstack(nullptr, &current) == 0 && (current.ss_flags & SS_ONSTACK);
}

// In the diverted rank, in normal context on the simulator thread: ends the
// run as an interruption no rank noticed, naming the rank and where it was.
void end_in_rank(void*)
{
  Simulation* simulation = g_simulation;
  int sig = Interruption::pending_signal_;
  if (!simulation || !sig || simulation->ending())  // the run ends on its own path: let it
    return;
  Rank* rank = simulation->current_rank();
  if (!rank)
    return;
  std::string where = " (rank " + std::to_string(rank->id()) + " in user code";
  if (*rank->last_call())
    where += std::string(" after ") + rank->last_call();
  where += ")";
  OutputCapture::collect(rank->id());  // what it printed so far is its own
  simulation->end_from_signal(Outcome::Interrupted, Interruption::message(sig, rank->clock().now(), where),
                              128 + sig);
}

// Whether the ending may use stdout and stderr: their locks are free or
// held by this thread (glibc's stream locks are recursive by owner). The
// program interrupted inside printf may hold stdout's lock with its owner
// not yet set (or already cleared), which the ending's fflush would wait for
// forever. ftrylockfile only tries (glibc: an atomic exchange, or the count
// raised when the owner is this thread), and funlockfile undoes it.
bool streams_free()
{
  if (::ftrylockfile(stdout) != 0)
    return false;
  bool err_free = ::ftrylockfile(stderr) == 0;
  if (err_free)
    ::funlockfile(stderr);
  ::funlockfile(stdout);
  return err_free;
}

// Diverts the rank that runs user code into end_in_rank, if the simulator
// thread was interrupted there (not in the simulator, SimGrid, the
// allocator or the sanitizer runtime: Trampoline::can_divert) and the
// handler runs on the alternate stack (the trampoline's frame goes below the
// interrupted stack pointer, where the handler's own frame would otherwise be).
bool divert_rank(void* context)
{
  if (!memory::Trampoline::supported() || memory::FaultHandler::stepping() || !on_alternate_stack() ||
      !memory::Trampoline::can_divert(context) || !streams_free())
    return false;
  int rank = memory::MemoryWatch::current_user_rank();
  if (rank < 0)
    return false;
  memory::TrapRequest request;
  request.kind = memory::TrapKind::Action;
  request.action = &end_in_rank;
  request.rank = rank;
  request.pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  memory::Trampoline::divert(context, request);
  return true;
}

// The timer's SIGALRM, on the simulator thread.
void on_timer(void* context)
{
  Simulation* simulation = g_simulation;
  if (!simulation)
    return;  // a tick left over from a run that ended
  memory::FaultHandler::Nested nested;  // simulator data may share a page with watched memory
  int stage = g_stage.load();
  if (stage == kIdle)
    return;
  if (stage == kLimit) {  // the host time limit: as a signal would
    g_limit_reached.store(true);
    note(SIGALRM);
    return;
  }
  long long now = monotonic_ns();
  int signals = g_signals.load();
  if (signals >= 3)
    end_minimally(simulation, "a third signal ended the run at once");
  if (stage == kNoted) {
    long long grace_end = g_grace_end.load();
    if (signals < 2 && now < grace_end) {
      arm_in(grace_end - now);
      return;
    }
    stage = kAsking;
    g_stage.store(kAsking);
    g_deadline = now + kEndingNs;
  }
  if (stage == kAsking) {
    if (simulation->ending()) {  // already on its ending path: it has until the deadline
      g_stage.store(kEnding);
    } else if (divert_rank(context)) {
      g_stage.store(kEnding);
      g_deadline = now + kEndingNs;
      arm_in(kEndingNs);
      return;
    } else if (now < g_deadline) {
      arm_in(kRetryNs);
      return;
    } else {
      end_minimally(simulation, "the simulator could not be stopped where the report can be written within "
                                "5 s of host time (busy in its own code or in the allocator)");
    }
  }
  if (now >= g_deadline)
    end_minimally(simulation, "the run did not end within 5 s of host time after it was asked to");
  arm_in(g_deadline - now);
}

void on_signal(int sig, siginfo_t* info, void* context)
{
  if (ForkedChild::active()) {  // a child a rank forked ends as any process would
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    return;
  }
  if (sig == SIGALRM) {
    if (info && info->si_code == SI_TIMER) {
      if (info->si_value.sival_ptr == &g_timer)
        on_timer(context);
      return;  // a timer of a rank's (its alarm is given back to it, never delivered)
    }
    // Sent by another process: an interruption as SIGINT. Raised by a rank
    // (alarm, setitimer, raise): given back to it, never delivered.
    if (!Interruption::sent_from_outside(info))
      return;
  }
  Interruption::from_outside(sig);
}

}  // namespace

bool Interruption::sent_from_outside(const siginfo_t* info)
{
  // Only kill(), sigqueue() and tgkill() carry a sender (si_pid): another
  // process's, or progsim's own for a rank's raise() or pthread_kill(); a
  // POSIX timer's SI_TIMER puts its timer id there.
  return info && (info->si_code == SI_USER || info->si_code == SI_QUEUE || info->si_code == SI_TKILL) &&
         info->si_pid != ::getpid();
}

void Interruption::from_outside(int sig)
{
  if (!note(sig))
    end_command(sig);
}

void Interruption::install()
{
  struct sigaction action {};
  action.sa_sigaction = on_signal;
  // SA_RESTART: the program's system calls go on until the run ends.
  // SA_ONSTACK: the timer's handler may divert a rank (divert_rank).
  action.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGALRM})
    sigaddset(&action.sa_mask, s);
  for (int s : {SIGINT, SIGTERM, SIGALRM})
    ::sigaction(s, &action, nullptr);
}

std::string Interruption::message(int sig, double time, const std::string& where)
{
  std::string what = sig == SIGALRM && g_limit_reached.load() ? g_host_limit_text
                                                              : std::string("interrupted by ") + signal_name(sig);
  return what + " at " + format_time(time) + where + "; the report and timeline show the run up to there";
}

void Interruption::limit_host_time(double seconds, const std::string& source)
{
  char text[64];
  std::snprintf(text, sizeof text, "%g", seconds);
  g_host_limit_text = std::string("host time limit of ") + text + " s (" + source + ") reached";
  std::snprintf(g_host_limit_words, sizeof g_host_limit_words, "%s", g_host_limit_text.c_str());
  int idle = kIdle;
  if (!g_stage.compare_exchange_strong(idle, kLimit))  // a signal came first
    return;
  arm_in(seconds * 1e9 < 1 ? 1 : static_cast<long long>(seconds * 1e9));
}

int Interruption::pending()
{
  return Interruption::pending_signal_;
}

void Interruption::set_simulation(Simulation* simulation)
{
  if (simulation && !g_timer_created.load()) {
    sigevent event{};
    event.sigev_notify = SIGEV_THREAD_ID;
    event.sigev_signo = SIGALRM;
    event.sigev_value.sival_ptr = &g_timer;  // tells its ticks from a rank's timers
    event._sigev_un._tid = static_cast<pid_t>(::syscall(SYS_gettid));
    if (::timer_create(CLOCK_MONOTONIC, &event, &g_timer) == 0)
      g_timer_created.store(true);
    else
      diag("the grace period and the host time limit are off: timer_create failed");
  }
  g_simulation = simulation;
  if (!simulation && g_timer_created.exchange(false)) {
    // A tick already queued finds no simulation and is ignored.
    ::timer_delete(g_timer);
    g_stage.store(kIdle);
  }
}

void Interruption::set_child(pid_t child)
{
  g_child = child;
}

void Interruption::end_at_safe_point()
{
  int sig = Interruption::pending_signal_;
  Simulation* simulation = g_simulation;
  if (!sig || !simulation || !simulation->running() || simulation->ending())
    return;
  Rank* rank = simulation->current_rank();
  if (!rank)
    return;
  std::string where = " (rank " + std::to_string(rank->id()) +
                      (rank->current_call() ? std::string(" in ") + rank->current_call() : std::string()) + ")";
  simulation->end_run(Outcome::Interrupted, Interruption::message(sig, rank->clock().now(), where), 128 + sig);
}

}  // namespace progsim::sim
