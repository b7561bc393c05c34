// progsim: the launcher. `progsim run -n N PROGRAM` runs a program in the
// simulator; further subcommands compare policies and replay traces. Called
// as progsim-mpiexec (or mpiexec.progsim, a link to progsim), or as
// `progsim -n N PROGRAM`, it is a drop-in mpiexec.

#include "progsim/Commands.hpp"
#include "sim/Interruption.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/Outcome.hpp"
#include "sim/TemporaryDirectory.hpp"

#include <mpi.h>

#include <csignal>
#include <cstdio>
#include <cstring>
#include <exception>
#include <new>
#include <string>

namespace {

// Called through a link named like mpiexec (progsim-mpiexec, mpiexec.progsim).
bool called_as_mpiexec(const char* argv0)
{
  std::string name = argv0;
  name = name.substr(name.find_last_of('/') + 1);
  return name.find("mpiexec") != std::string::npos || name.find("mpirun") != std::string::npos;
}

void print_help()
{
  std::printf(
      "progsim %s: deterministic simulation of MPI programs and of MPI progress policies on SimGrid\n"
      "\n"
      "Usage: progsim COMMAND [options]\n"
      "       progsim -n N [options] PROGRAM [ARGS...]   (as mpiexec: progsim-mpiexec --help)\n"
      "\n"
      "Commands:\n"
      "  run       run an MPI program built with progsim-cc/progsim-cxx (like mpiexec)\n"
      "  compare   run a program under several progress policies and print one table\n"
      "  check     is a program correct MPI? every policy and implementation freedom\n"
      "  replay    replay a trace (recorded with 'run --record', or SimGrid's time-independent)\n"
      "  examples  the teaching catalogue: list it, or compile and compare one example\n"
      "  calibrate measure the machine's real MPI and fit a platform and parameters to it\n"
      "  sweep     programs x ranks x policies x platforms x --cfg values: one table (local or Slurm)\n"
      "\n"
      "Options:\n"
      "  -h, --help     this text ('progsim run --help' for the options of run)\n"
      "  --version      print the version\n"
      "\n"
      "Example:\n"
      "  progsim-cc hello.c -o hello && progsim run -n 4 ./hello\n",
      PROGSIM_VERSION);
}

int dispatch(int argc, char** argv)
{
  // A closed pipe on stdout (progsim run ... | head) must not kill the run
  // before its report is written; write errors are ignored instead.
  std::signal(SIGPIPE, SIG_IGN);
  progsim::sim::Interruption::install();
  if (called_as_mpiexec(argv[0])) {
    if (argc == 2 && (std::string(argv[1]) == "--version" || std::string(argv[1]) == "-V")) {
      std::printf("progsim-mpiexec (progsim %s)\n", PROGSIM_VERSION);
      return 0;
    }
    return progsim::cli::mpiexec_command(argc, argv);
  }
  if (argc < 2) {
    print_help();
    return 2;
  }
  std::string command = argv[1];
  if (command == "-h" || command == "--help" || command == "help") {
    print_help();
    return 0;
  }
  if (command == "--version" || command == "-V") {
    std::printf("progsim %s\n", PROGSIM_VERSION);
    return 0;
  }
  if (command == "run")
    return progsim::cli::run_command(argc - 1, argv + 1);
  if (command == "compare")
    return progsim::cli::compare_command(argc - 1, argv + 1);
  if (command == "check")
    return progsim::cli::check_command(argc - 1, argv + 1);
  if (command == "replay")
    return progsim::cli::replay_command(argc - 1, argv + 1);
  if (command == "examples")
    return progsim::cli::examples_command(argc - 1, argv + 1);
  if (command == "calibrate")
    return progsim::cli::calibrate_command(argc - 1, argv + 1);
  if (command == "sweep")
    return progsim::cli::sweep_command(argc - 1, argv + 1);
  // `progsim -n 4 ./prog`: an option where the command goes is mpiexec's form.
  if (command.size() > 1 && command[0] == '-')
    return progsim::cli::mpiexec_command(argc, argv);
  std::fprintf(stderr, "progsim: unknown command '%s' (see progsim --help)\n", command.c_str());
  return 2;
}

}  // namespace

int main(int argc, char** argv)
{
  // Nothing escapes as an uncaught exception (std::terminate, SIGABRT, no
  // message): the ranks' output is flushed, the temporary directories are
  // removed, and the user is told what happened.
  auto clean_up = [] {
    progsim::sim::OutputCapture::stop();
    progsim::sim::TemporaryDirectory::remove_all();
  };
  std::string what;
  try {
    return dispatch(argc, argv);
  } catch (const std::bad_alloc&) {
    // Before the run (ranks, placement, program copies) this is the size
    // asked for; the user can change it.
    clean_up();
    std::fprintf(stderr, "progsim: error: out of memory: this run needs more memory than the machine gives "
                         "(fewer ranks, --privatize=off or a smaller --cfg stack-size need less)\n");
    return progsim::sim::kExitUsageError;
  } catch (const std::exception& e) {
    what = e.what();
  } catch (...) {
    what = "an unknown exception";
  }
  clean_up();
  std::fprintf(stderr, "progsim: internal error: %s (please report this with the command line)\n", what.c_str());
  return progsim::sim::kExitInternalError;
}
