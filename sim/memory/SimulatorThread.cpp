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
std::atomic<ThreadRequest*> g_request{nullptr};  // the one being served, until taken
std::atomic<bool> g_handler_installed{false};

// A signal the simulator does not otherwise use, and programs rarely.
int interrupt_signal()
{
  return SIGRTMAX - 2;
}

// Takes the pending request if it is for `rank` (claimed once: the slot is
// free again for the next thread's request).
ThreadRequest* take(int rank)
{
  ThreadRequest* request = g_request.load();
  if (!request || (request->rank >= 0 && request->rank != rank))
    return nullptr;
  if (!g_request.compare_exchange_strong(request, nullptr))
    return nullptr;
  request->taken = true;
  return request;
}

// On the simulator thread, interrupted anywhere: diverts a rank in user code
// (not the simulator, SimGrid or the trampoline) into the requested action.
void on_interrupt(int, siginfo_t*, void* context)
{
  if (!g_request.load() || !Trampoline::can_divert(context))
    return;
  int rank = MemoryWatch::current_user_rank();
  if (rank < 0)
    return;
  ThreadRequest* taken = take(rank);
  if (!taken)
    return;
  TrapRequest request;
  request.kind = TrapKind::Action;
  request.action = taken->action;
  request.action_data = taken->data;
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

void pause_briefly()
{
  timespec pause{0, 1000000};  // 1 ms of host time
  ::nanosleep(&pause, nullptr);
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

void SimulatorThread::hand_over(ThreadRequest& request)
{
  install_handler();
  ThreadRequest* none = nullptr;
  while (!g_request.compare_exchange_strong(none, &request)) {  // another thread's is being served
    none = nullptr;
    pause_briefly();
  }
  // Until the simulator thread takes it: it may be inside the simulator
  // (not divertable) now and in the rank's user code a moment later.
  while (!request.taken.load()) {
    ::pthread_kill(g_thread, interrupt_signal());
    pause_briefly();
  }
  for (;;)
    ::pause();  // the simulator thread ends the process or this thread's rank
}

void SimulatorThread::run_pending(int rank)
{
  if (!g_request.load())
    return;
  if (ThreadRequest* request = take(rank))
    request->action(request->data);
}

}  // namespace progsim::sim::memory
