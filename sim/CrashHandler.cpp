#include "sim/CrashHandler.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/ForkedChild.hpp"
#include "sim/Interruption.hpp"
#include "sim/MinimalEnding.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/ProgramThreads.hpp"
#include "sim/Simulation.hpp"
#include "sim/TemporaryDirectory.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/SimulatorThread.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <csetjmp>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <ucontext.h>
#include <unistd.h>

namespace sg4 = simgrid::s4u;

namespace progsim::sim {

namespace {

// The faults, then the other signals whose default action ends the process
// (signal(7)), which a rank may raise (raise(SIGUSR1), an itimer it armed)
// and which would otherwise end progsim with no report. Not here: SIGINT,
// SIGTERM and SIGALRM (Interruption), SIGPROF (the watchdog), SIGPIPE
// (ignored: progsim's own output may go to a closed pipe), and the stop
// signals (the process stops, as a real one would). The real-time signals
// are added at install (SIGRTMIN is not a constant).
constexpr int kSignals[] = {SIGSEGV, SIGBUS,    SIGFPE,  SIGILL,  SIGABRT,   SIGTRAP, SIGHUP, SIGQUIT,
                            SIGUSR1, SIGUSR2,   SIGVTALRM, SIGXCPU, SIGXFSZ, SIGSYS,  SIGSTKFLT, SIGPWR, SIGIO};
Simulation* g_simulation = nullptr;
struct sigaction g_installed {};
std::unique_ptr<char[]> g_alt_stack;
constexpr size_t kAltStackSize = 256 * 1024;

// Reporting a crash uses the heap, which the crash may have corrupted (the
// program overran a malloc'ed block and glibc aborted). A fault while
// reporting jumps back to the handler, which then writes a minimal report
// from static buffers.
sigjmp_buf g_reporting;
volatile sig_atomic_t g_stage = 0;  // 0 idle, 1 reporting, 2 writing the minimal report
char g_summary[1024];               // the message, formatted without the heap

const char* describe(int sig)
{
  switch (sig) {
    case SIGSEGV: return "SIGSEGV (segmentation fault)";
    case SIGBUS: return "SIGBUS (bus error)";
    case SIGFPE: return "SIGFPE (arithmetic exception)";
    case SIGILL: return "SIGILL (illegal instruction)";
    case SIGABRT: return "SIGABRT (abort)";
    case SIGTRAP: return "SIGTRAP (trap)";
  }
  // "SIGUSR1 (user defined signal 1)": glibc's tables, no allocation.
  static char text[96];
  const char* abbreviation = ::sigabbrev_np(sig);
  const char* description = ::sigdescr_np(sig);
  if (!abbreviation || !description) {
    std::snprintf(text, sizeof text, "SIGRTMIN+%d (real-time signal)", sig - SIGRTMIN);
    return text;
  }
  int n = std::snprintf(text, sizeof text, "SIG%s (%s)", abbreviation, description);
  char* first = text + n - static_cast<int>(std::strlen(description)) - 1;
  if (first[1] >= 'a' && first[1] <= 'z')  // "Hangup" -> "hangup", "CPU time ..." kept
    first[0] = static_cast<char>(first[0] - 'A' + 'a');
  return text;
}

void for_each_signal(void (*act)(int))
{
  for (int s : kSignals)
    act(s);
  for (int s = SIGRTMIN; s <= SIGRTMAX; ++s)
    act(s);
}

std::uintptr_t interrupted_pc(const void* context)
{
  return context ? static_cast<std::uintptr_t>(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP])
                 : 0;
}

// Where the rank's main thread was, in two pieces: " inside MPI_Recv".
void rank_activity(const Rank& rank, const char*& words, const char*& call)
{
  call = "";
  if (rank.current_call()) {
    words = " inside ";
    call = rank.current_call();
  } else if (*rank.last_call()) {
    words = " in user code after ";
    call = rank.last_call();
  } else {
    words = " in user code before any MPI call";
  }
}

// The crash in words, into g_summary: snprintf of numbers and C strings
// does not allocate.
void summarize(int sig, const siginfo_t* info, const void* context, Rank* rank)
{
  if (!rank) {
    std::snprintf(g_summary, sizeof g_summary,
                  "internal error: %s in the simulator at t=%.9f s (please report this with the program)",
                  describe(sig), g_simulation ? g_simulation->now() : 0.0);
    return;
  }
  // The rank's own clock: the engine's lags behind it by the rank's
  // unflushed CPU costs.
  int n = std::snprintf(g_summary, sizeof g_summary, "rank %d crashed: %s at t=%.9f s", rank->id(), describe(sig),
                        rank->clock().now());
  auto append = [&n](const char* a, const char* b) {
    if (n >= 0 && static_cast<size_t>(n) < sizeof g_summary)
      n += std::snprintf(g_summary + n, sizeof g_summary - static_cast<size_t>(n), "%s%s", a, b);
  };
  const char* words;
  const char* call;
  rank_activity(*rank, words, call);
  append(words, call);
  if (sig == SIGSEGV && info && context) {
    // A fault just below the stack pointer is most likely a stack overflow.
    auto sp = static_cast<uintptr_t>(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
    auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
    if (addr + 65536 >= sp && addr <= sp + 65536)
      append(" (probably a stack overflow: raise --cfg stack-size)", "");
  }
}

// After a fault while reporting: the message on stderr and a report with
// the outcome, from static memory only.
[[noreturn]] void minimal_ending(int sig)
{
  bool shown = g_simulation && g_simulation->ending();  // else the message is out already
  MinimalEnding::end(g_simulation, "crashed", 128 + sig, g_simulation ? g_simulation->now() : 0.0, g_summary, !shown,
                     "the simulator's memory is damaged (a heap corruption by the program?); the report has the "
                     "outcome and this message only",
                     "the simulator's memory was damaged: no other field could be written");
}

// A crash in a thread of the program (not the simulator thread), written
// there and reported by the simulator thread.
struct ThreadCrash {
  int sig = 0;
  std::string signal;  // "SIGSEGV (segmentation fault)"
  bool from_outside = false;
  int rank = -1;
  std::string created_at;  // "main (app.c:30)": the program's pthread_create call
  std::string fault_at;    // the thread's innermost frame of the program
};

// On the simulator thread, inside some rank: the thread's process, i.e. its
// rank, died; the run ends as for a crash of the rank's main thread.
void end_run_for_thread_crash(void* data)
{
  const auto& crash = *static_cast<const ThreadCrash*>(data);
  Simulation& simulation = *g_simulation;
  // Ended without unwinding the ranks, as for a crash of a main thread: a
  // rank's stack may hold a C++ std::thread being joined, whose destructor
  // would call std::terminate.
  if (crash.from_outside)
    simulation.end_from_signal(Outcome::Interrupted, Interruption::message(crash.sig, simulation.now(), ""),
                               128 + crash.sig);
  std::string at = crash.fault_at.empty() ? "" : ", at " + crash.fault_at;
  if (crash.rank < 0)
    simulation.end_from_signal(Outcome::Crashed,
                               "a thread of the program crashed: " + crash.signal + " at " +
                                   format_time(simulation.now()) + at +
                                   " (not created by the program's own pthread_create call: its rank is unknown)",
                               128 + crash.sig);
  Rank& rank = simulation.rank(crash.rank);
  std::string id = std::to_string(rank.id());
  const char* words;
  const char* call;
  rank_activity(rank, words, call);
  std::string text = "rank " + id + " crashed: " + crash.signal + " at " + format_time(rank.clock().now()) +
                     " in a thread created by rank " + id +
                     (crash.created_at.empty() ? "" : " at " + crash.created_at) + at + "; its main thread was" +
                     words + call;
  rank.set_state(RankState::Failed);
  rank.end_reason = "crashed: " + crash.signal + " in a thread";
  rank.finish_time = rank.clock().now();
  OutputCapture::collect(rank.id());
  simulation.end_from_signal(Outcome::Crashed, text, 128 + crash.sig);
}

// The handler on a thread of the program: the simulator thread reports it
// (this one waits for the process to end, as the crashed process would).
[[noreturn]] void crash_in_program_thread(int sig, siginfo_t* info, void* context)
{
  ThreadCrash crash;
  crash.sig = sig;
  crash.signal = describe(sig);
  crash.from_outside = Interruption::sent_from_outside(info);
  std::uintptr_t pc = interrupted_pc(context);
  crash.rank = ProgramThreads::rank_of_thread(pc);
  crash.created_at = ProgramThreads::creation_site();
  crash.fault_at = memory::describe_rank_location(pc, g_simulation->options().program);
  memory::ThreadRequest request;
  request.action = &end_run_for_thread_crash;
  request.data = &crash;
  memory::SimulatorThread::hand_over(request);
}

void on_fatal_signal(int sig, siginfo_t* info, void* context)
{
  static int first_signal = 0;
  if (ForkedChild::active()) {  // not the run's process: it dies of the signal
    ForkedChild::died_of(sig, describe(sig));
    return;
  }
  // Sent by another process, on whichever thread the kernel chose (a
  // thread of the program too): as SIGINT and SIGTERM, the run is
  // interrupted (Interruption.hpp: at the next safe point of a rank, by
  // diverting the rank in user code otherwise). Never from here: the signal
  // may have come while the simulator was inside the allocator, and the
  // report's allocations would then wait for its lock forever (seen under
  // ASan: faults.interrupt.HUP.hang.run hung, 1 run in 40 by hand). Hence
  // SA_RESTART (install): the program's system calls go on until then.
  if (g_stage == 0 && Interruption::sent_from_outside(info)) {
    Interruption::from_outside(sig);
    return;
  }
  if (g_simulation && !memory::SimulatorThread::is_current())
    crash_in_program_thread(sig, info, context);
  if (g_stage == 1) {  // the report faulted: write the minimal one
    g_stage = 2;
    siglongjmp(g_reporting, 1);
  }
  if (g_stage == 2)
    ::_exit(128 + first_signal);
  g_stage = 1;
  first_signal = sig;
  Simulation* simulation = g_simulation;
  Rank* rank = simulation ? simulation->current_rank() : nullptr;
  summarize(sig, info, context, rank);
  if (sigsetjmp(g_reporting, 1) != 0)
    minimal_ending(first_signal);
  // A fault while reporting must reach this handler again.
  static sigset_t fatal;
  sigemptyset(&fatal);
  for_each_signal([](int s) { sigaddset(&fatal, s); });
  ::sigprocmask(SIG_UNBLOCK, &fatal, nullptr);
  if (!simulation) {
    write_text(2, "progsim: ");
    write_text(2, g_summary);
    write_text(2, "\n");
    TemporaryDirectory::remove_all();
    ::_exit(128 + sig);
  }
  // A crash while the run already ends (a C++ destructor calling
  // std::terminate as a killed rank unwinds) is a consequence: the ranks'
  // endings stay as decided.
  if (rank && !simulation->ending()) {
    // The program's file:line (may allocate: a fault here ends minimally).
    std::string where = memory::describe_rank_location(interrupted_pc(context), simulation->options().program);
    if (!where.empty()) {
      std::string text = g_summary;
      std::size_t note = text.find(" (probably a stack overflow");
      text.insert(note == std::string::npos ? text.size() : note, ", at " + where);
      std::snprintf(g_summary, sizeof g_summary, "%s", text.c_str());
    }
    rank->set_state(RankState::Failed);
    rank->end_reason = std::string("crashed: ") + describe(sig);
    rank->finish_time = rank->clock().now();
    OutputCapture::collect(rank->id());
  } else {
    OutputCapture::collect(-1);
  }
  simulation->end_from_signal(Outcome::Crashed, g_summary, 128 + sig);
}

}  // namespace

void CrashHandler::install(Simulation& simulation)
{
  g_simulation = &simulation;
  if (!g_alt_stack) {
    g_alt_stack.reset(new char[kAltStackSize]);
    stack_t ss{};
    ss.ss_sp = g_alt_stack.get();
    ss.ss_size = kAltStackSize;
    ::sigaltstack(&ss, nullptr);
  }
  struct sigaction action {};
  action.sa_sigaction = on_fatal_signal;
  // SA_RESTART matters only for a signal sent from outside, the one case
  // where the handler returns (the run ends at the next safe point).
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&action.sa_mask);
  g_installed = action;
  for_each_signal([](int s) { ::sigaction(s, &g_installed, nullptr); });
}

bool CrashHandler::handles(int sig)
{
  for (int s : kSignals)
    if (s == sig)
      return true;
  return sig >= SIGRTMIN && sig <= SIGRTMAX;
}

bool CrashHandler::is_handler(const struct sigaction& action)
{
  return (action.sa_flags & SA_SIGINFO) && action.sa_sigaction == on_fatal_signal;
}

void CrashHandler::take_back(int sig)
{
  if (g_simulation && handles(sig))
    ::sigaction(sig, &g_installed, nullptr);
}

void CrashHandler::uninstall()
{
  for_each_signal([](int s) { std::signal(s, SIG_DFL); });
  g_simulation = nullptr;
}

}  // namespace progsim::sim
