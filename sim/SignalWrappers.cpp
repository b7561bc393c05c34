// The program's calls that change signal dispositions and the signal mask.
// progsim-cc links programs with `-Wl,--wrap=NAME` for each (as for
// SystemCallWrappers.cpp). Every rank shares progsim's process, whose
// handlers turn a rank's fault into its reported crash (CrashHandler), drive
// memory watching (SIGSEGV, SIGTRAP: memory/FaultHandler), end interrupted
// runs (SIGINT, SIGTERM, SIGALRM: Interruption) and the watchdog (SIGPROF):
// a program that installed its own SIGSEGV handler (a backtrace printer) or
// ignored or blocked SIGSEGV ended progsim without a report, and broke
// memory watching for every rank. So, in a rank:
//  - for those signals the program's disposition is kept for the program
//    (sigaction gives it back) and never installed: its handler is not
//    called, the fault is reported as the rank's crash;
//  - for the other signals whose default action ends a process, the
//    program's handlers and SIG_IGN are installed (shared by every rank, as
//    the process is), and SIG_DFL is the crash handler again (the default
//    action, reported);
//  - the signal mask never blocks progsim's signals.
// Outside a rank they are the real functions.

#include "sim/CallScope.hpp"
#include "sim/CrashHandler.hpp"
#include "sim/Rank.hpp"

#include <csignal>
#include <cstring>
#include <pthread.h>

using progsim::sim::CrashHandler;

namespace {

bool kept_by_progsim(int sig)
{
  switch (sig) {
    case SIGSEGV: case SIGBUS: case SIGFPE: case SIGILL: case SIGABRT: case SIGTRAP:
    case SIGINT: case SIGTERM: case SIGALRM: case SIGPROF:
      return true;
  }
  return false;
}

struct sigaction default_action()
{
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  sigemptyset(&action.sa_mask);
  return action;
}

bool is_default(const struct sigaction& action)
{
  return !(action.sa_flags & SA_SIGINFO) && action.sa_handler == SIG_DFL;
}

// SET without progsim's signals, for a mask that blocks (SIG_BLOCK, SIG_SETMASK).
sigset_t without_kept(int how, const sigset_t* set)
{
  sigset_t copy = *set;
  if (how != SIG_UNBLOCK)
    for (int s = 1; s < NSIG; ++s)
      if (kept_by_progsim(s))
        sigdelset(&copy, s);
  return copy;
}

}  // namespace

extern "C" {

int __wrap_sigaction(int sig, const struct sigaction* action, struct sigaction* old)
{
  progsim::sim::Rank* rank = progsim::sim::calling_rank();
  if (!rank || sig <= 0 || sig >= NSIG)
    return ::sigaction(sig, action, old);
  if (kept_by_progsim(sig)) {
    const struct sigaction* kept = rank->libc().program_signal_action(sig);
    struct sigaction previous = kept ? *kept : default_action();
    if (action)
      rank->libc().set_program_signal_action(sig, *action);
    if (old)
      *old = previous;
    return 0;
  }
  struct sigaction previous {};
  int result = 0;
  if (action && is_default(*action) && CrashHandler::handles(sig)) {
    result = ::sigaction(sig, nullptr, &previous);
    CrashHandler::take_back(sig);
  } else {
    result = ::sigaction(sig, action, &previous);
  }
  if (result == 0 && old)
    *old = CrashHandler::is_handler(previous) ? default_action() : previous;
  return result;
}

// signal() as glibc's: BSD semantics (SA_RESTART, the handler stays).
__sighandler_t __wrap_signal(int sig, __sighandler_t handler)
{
  struct sigaction action {}, old {};
  action.sa_handler = handler;
  action.sa_flags = SA_RESTART;
  sigemptyset(&action.sa_mask);
  sigaddset(&action.sa_mask, sig);
  if (__wrap_sigaction(sig, &action, &old) != 0)
    return SIG_ERR;
  return old.sa_handler;
}

int __wrap_sigprocmask(int how, const sigset_t* set, sigset_t* old)
{
  if (!set || !progsim::sim::calling_rank())
    return ::sigprocmask(how, set, old);
  sigset_t allowed = without_kept(how, set);
  return ::sigprocmask(how, &allowed, old);
}

int __wrap_pthread_sigmask(int how, const sigset_t* set, sigset_t* old)
{
  if (!set || !progsim::sim::calling_rank())
    return ::pthread_sigmask(how, set, old);
  sigset_t allowed = without_kept(how, set);
  return ::pthread_sigmask(how, &allowed, old);
}

}  // extern "C"
