#include "sim/Interruption.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/ForkedChild.hpp"
#include "sim/Simulation.hpp"
#include "sim/TemporaryDirectory.hpp"

#include <csignal>
#include <cstdio>
#include <cstring>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

namespace progsim::sim {

namespace {

Simulation* volatile g_simulation = nullptr;
volatile pid_t g_child = 0;
// Host seconds a rank may take to reach a safe point before the handler
// ends the run itself (wall-clock time decides only when an interrupted run
// stops, never anything in a run that was not interrupted).
constexpr unsigned kGraceSeconds = 1;

// The host time limit, named in the message when it ends the run.
std::string g_host_limit_text;
// The limit's timer shares SIGALRM with the grace period: an alarm with no
// signal pending is the limit, one with a signal pending is the grace's end.
volatile sig_atomic_t g_host_limit_armed = 0;

const char* signal_name(int sig)
{
  static char name[32];
  const char* abbreviation = ::sigabbrev_np(sig);  // "INT", "HUP": glibc's table, no allocation
  if (!abbreviation)
    return "a signal";
  std::snprintf(name, sizeof name, "SIG%s", abbreviation);
  return name;
}

[[noreturn]] void end_now(int sig)
{
  if (Simulation* simulation = g_simulation)
    simulation->end_from_signal(Outcome::Interrupted, Interruption::message(sig, simulation->now(), ""), 128 + sig);
  TemporaryDirectory::remove_all();
  ::_exit(128 + sig);
}

void on_signal(int sig)
{
  if (ForkedChild::active()) {  // a child a rank forked ends as any process would
    ::signal(sig, SIG_DFL);
    ::raise(sig);
    return;
  }
  if (sig == SIGALRM) {
    if (Interruption::pending_signal_ && g_simulation)  // the grace period is over
      end_now(Interruption::pending_signal_);
    if (g_host_limit_armed && g_simulation) {  // the host time limit: as a signal would
      g_host_limit_armed = 0;
      Interruption::pending_signal_ = SIGALRM;
      ::alarm(kGraceSeconds);
    }
    return;
  }
  if (Interruption::end_at_next_safe_point(sig))
    return;
  if (pid_t child = g_child) {  // compare/examples: the child writes its own report
    ::kill(child, sig);
    ::waitpid(child, nullptr, 0);
  }
  TemporaryDirectory::remove_all();
  ::_exit(128 + sig);
}

}  // namespace

bool Interruption::end_at_next_safe_point(int sig)
{
  if (!g_simulation)
    return false;
  if (Interruption::pending_signal_)  // a second signal: do not wait any longer
    end_now(Interruption::pending_signal_);
  Interruption::pending_signal_ = sig;
  ::alarm(kGraceSeconds);
  return true;
}

void Interruption::install()
{
  struct sigaction action {};
  action.sa_handler = on_signal;
  action.sa_flags = SA_RESTART;  // the program's system calls go on until the safe point
  sigemptyset(&action.sa_mask);
  for (int s : {SIGINT, SIGTERM, SIGALRM})
    sigaddset(&action.sa_mask, s);
  for (int s : {SIGINT, SIGTERM, SIGALRM})
    ::sigaction(s, &action, nullptr);
}

std::string Interruption::message(int sig, double time, const std::string& where)
{
  std::string what = sig == SIGALRM ? g_host_limit_text : std::string("interrupted by ") + signal_name(sig);
  return what + " at " + format_time(time) + where + "; the report and timeline show the run up to there";
}

void Interruption::limit_host_time(double seconds, const std::string& source)
{
  char text[64];
  std::snprintf(text, sizeof text, "%g", seconds);
  g_host_limit_text = std::string("host time limit of ") + text + " s (" + source + ") reached";
  itimerval timer{};
  auto whole = static_cast<time_t>(seconds);
  timer.it_value.tv_sec = whole;
  timer.it_value.tv_usec = static_cast<suseconds_t>((seconds - static_cast<double>(whole)) * 1e6);
  if (timer.it_value.tv_sec == 0 && timer.it_value.tv_usec == 0)
    timer.it_value.tv_usec = 1;
  g_host_limit_armed = 1;
  ::setitimer(ITIMER_REAL, &timer, nullptr);
}

int Interruption::pending()
{
  return Interruption::pending_signal_;
}

void Interruption::set_simulation(Simulation* simulation)
{
  g_simulation = simulation;
  if (!simulation) {
    g_host_limit_armed = 0;
    ::alarm(0);
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
