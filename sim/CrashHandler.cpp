#include "sim/CrashHandler.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <ucontext.h>
#include <unistd.h>

namespace sg4 = simgrid::s4u;

namespace progsim::sim {

namespace {

constexpr int kSignals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, SIGTRAP};
Simulation* g_simulation = nullptr;
std::unique_ptr<char[]> g_alt_stack;
constexpr size_t kAltStackSize = 256 * 1024;

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
  return "signal";
}

std::uintptr_t interrupted_pc(const void* context)
{
  return context ? static_cast<std::uintptr_t>(static_cast<const ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP])
                 : 0;
}

void on_fatal_signal(int sig, siginfo_t* info, void* context)
{
  // Restore the default action first: a second fault here must not loop.
  for (int s : kSignals)
    std::signal(s, SIG_DFL);
  Simulation* simulation = g_simulation;
  std::string message;
  Rank* rank = simulation ? simulation->current_rank() : nullptr;
  if (rank) {
    message = "rank " + std::to_string(rank->id()) + " crashed: " + describe(sig) + " at " +
              format_time(sg4::Engine::get_clock());
    if (rank->current_call())
      message += std::string(" inside ") + rank->current_call();
    else if (!rank->last_call().empty())
      message += " in user code after " + rank->last_call();
    else
      message += " in user code before any MPI call";
    std::string where = memory::describe_rank_location(interrupted_pc(context), simulation->options().program);
    if (!where.empty())
      message += ", at " + where;
    if (sig == SIGSEGV && info && context) {
      // A fault just below the stack pointer is most likely a stack overflow.
      auto sp = static_cast<uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RSP]);
      auto addr = reinterpret_cast<uintptr_t>(info->si_addr);
      if (addr + 65536 >= sp && addr <= sp + 65536)
        message += " (probably a stack overflow: raise --cfg stack-size)";
    }
    rank->set_state(RankState::Failed);
    rank->end_reason = std::string("crashed: ") + describe(sig);
    OutputCapture::collect(rank->id());
  } else {
    message = std::string("internal error: ") + describe(sig) + " in the simulator at " +
              format_time(sg4::Engine::get_clock()) + " (please report this with the program)";
    OutputCapture::collect(-1);
  }
  if (simulation) {
    simulation->record_crash(message, sig);
    diag(message);
    OutputCapture::stop();
    simulation->write_report();
  }
  ::_exit(128 + sig);
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
  action.sa_flags = SA_SIGINFO | SA_ONSTACK;
  sigemptyset(&action.sa_mask);
  for (int s : kSignals)
    ::sigaction(s, &action, nullptr);
}

void CrashHandler::uninstall()
{
  for (int s : kSignals)
    std::signal(s, SIG_DFL);
  g_simulation = nullptr;
}

}  // namespace progsim::sim
