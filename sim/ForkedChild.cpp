#include "sim/ForkedChild.hpp"

#include "sim/CallScope.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/ProgramThreads.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/MemoryWatch.hpp"
#include "sim/memory/SimulatorThread.hpp"

#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <cstring>

namespace progsim::sim {

namespace {

// Set in the child only, by the fork wrapper.
bool g_active = false;
int g_rank = -1;
std::uintptr_t g_fork_site = 0;

// The child is not an MPI process: status 1, as a fatal MPI error's.
constexpr int kEndedStatus = 1;

std::string location(std::uintptr_t pc)
{
  Simulation* simulation = Simulation::current();
  return pc && simulation ? memory::describe_program_location(pc, simulation->options().program) : "";
}

// Straight to the real stderr: the captured one is the parent's, which
// forwards it as some rank's output.
void say(const std::string& text)
{
  std::string line = "progsim: " + text + "\n";
  ssize_t written = ::write(OutputCapture::real_stderr(), line.data(), line.size());
  (void)written;
}

std::string child_words()
{
  std::string site = location(g_fork_site);
  // No pid: the message is the same in every run.
  return "the child process that rank " + std::to_string(g_rank) + " forked" +
         (site.empty() ? "" : " at " + site);
}

}  // namespace

bool ForkedChild::active()
{
  return g_active;
}

void ForkedChild::end_at_mpi_call(const char* call, std::uintptr_t caller)
{
  std::string site = location(memory::program_call_site(caller));
  end_instead_of(std::string("called ") + call + (site.empty() ? "" : " at " + site));
}

void ForkedChild::end_instead_of(const std::string& what)
{
  std::fflush(nullptr);  // what the child printed before
  say(child_words() + " " + what + ": a forked child is not an MPI process (it may run plain code, exec another "
      "program or exit), so it ends here with status " + std::to_string(kEndedStatus) +
      "; the parent goes on with the run");
  ::_exit(kEndedStatus);
}

void ForkedChild::exit(int code, bool run_exit_handlers)
{
  if (run_exit_handlers) {
    if (Simulation* simulation = Simulation::current(); simulation && g_rank >= 0)
      simulation->rank(g_rank).libc().run_exit_handlers(code);
    std::fflush(nullptr);
  }
  // Not std::exit: progsim's own destructors and exit handlers belong to the
  // parent (its temporary files, its outputs).
  ::_exit(code);
}

void ForkedChild::died_of(int sig, const char* signal)
{
  say(child_words() + " died of " + signal);
  struct sigaction default_action {};
  default_action.sa_handler = SIG_DFL;
  sigemptyset(&default_action.sa_mask);
  ::sigaction(sig, &default_action, nullptr);
  // A fault happens again when the handler returns; a raised signal is
  // delivered again once the handler unblocks it.
  ::raise(sig);
}

}  // namespace progsim::sim

extern "C" pid_t __wrap_fork()
{
  using namespace progsim::sim;
  int rank = -1;
  if (memory::SimulatorThread::is_current()) {
    if (Rank* r = calling_rank())
      rank = r->id();
  } else if (const ThreadOrigin* origin = ProgramThreads::origin()) {
    rank = origin->rank;
  }
  std::uintptr_t site =
      rank >= 0 ? memory::program_call_site(reinterpret_cast<std::uintptr_t>(__builtin_return_address(0))) : 0;
  pid_t pid = ::fork();  // progsim's own code is not linked with --wrap: the real one
  if (pid == 0 && rank >= 0) {
    g_active = true;
    g_rank = rank;
    g_fork_site = site;
    // The child's copy of the watched pages opens: its accesses are its own.
    memory::MemoryWatch::instance().stop();
  }
  return pid;
}
