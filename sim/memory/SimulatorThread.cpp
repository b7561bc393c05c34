#include "sim/memory/SimulatorThread.hpp"

#include "sim/memory/MemoryWatch.hpp"
#include "sim/memory/Trampoline.hpp"

#include <atomic>
#include <csignal>
#include <ctime>
#include <pthread.h>
#include <ucontext.h>
#include <unistd.h>

namespace progsim::sim::memory {

namespace {

pthread_t g_thread{};
std::atomic<bool> g_adopted{false};
std::atomic<void (*)()> g_action{nullptr};  // requested by another thread
std::atomic<bool> g_taken{false};           // the simulator thread has taken it
std::atomic<bool> g_handler_installed{false};

// A signal the simulator does not otherwise use, and programs rarely.
int interrupt_signal()
{
  return SIGRTMAX - 2;
}

// On the simulator thread, interrupted anywhere: diverts a rank in user code
// (not the simulator, SimGrid or the trampoline) into the requested action.
void on_interrupt(int, siginfo_t*, void* context)
{
  void (*action)() = g_action.load();
  if (!action || g_taken.load() || !Trampoline::can_divert(context))
    return;
  int rank = MemoryWatch::current_user_rank();
  if (rank < 0)
    return;
  if (g_taken.exchange(true))
    return;
  TrapRequest request;
  request.kind = TrapKind::Action;
  request.action = action;
  request.rank = rank;
  request.pc = static_cast<std::uintptr_t>(static_cast<ucontext_t*>(context)->uc_mcontext.gregs[REG_RIP]);
  Trampoline::divert(context, request);
}

void install_handler()
{
  if (g_handler_installed.exchange(true))
    return;
  struct sigaction action {};
  action.sa_sigaction = on_interrupt;
  action.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_RESTART;
  sigemptyset(&action.sa_mask);
  ::sigaction(interrupt_signal(), &action, nullptr);
}

}  // namespace

void SimulatorThread::adopt()
{
  g_thread = ::pthread_self();
  g_adopted = true;
}

bool SimulatorThread::is_current()
{
  return !g_adopted.load() || ::pthread_equal(::pthread_self(), g_thread);
}

void SimulatorThread::end_run_from_other_thread(void (*action)())
{
  void (*none)() = nullptr;
  if (g_action.compare_exchange_strong(none, action)) {
    install_handler();
    // Until the simulator thread takes it: it may be inside the simulator
    // (not divertable) now and in a rank's user code a moment later.
    while (!g_taken.load()) {
      ::pthread_kill(g_thread, interrupt_signal());
      timespec pause{0, 1000000};  // 1 ms of host time
      ::nanosleep(&pause, nullptr);
    }
  }
  for (;;)
    ::pause();  // the simulator thread ends the process
}

void SimulatorThread::run_pending()
{
  void (*action)() = g_action.load();
  if (action && !g_taken.exchange(true))
    action();
}

}  // namespace progsim::sim::memory
