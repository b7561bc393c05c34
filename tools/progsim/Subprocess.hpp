// Running progsim itself and its compiler wrappers as child processes (one
// simulation per process: SimGrid keeps global state).
#pragma once

#include <string>
#include <sys/types.h>
#include <vector>

namespace progsim::cli {

// The running progsim executable, and the folder it is in (where
// progsim-cc and progsim-cxx are installed too).
std::string self_path();
std::string self_dir();

// Runs argv[0] (a path, or a name looked up in PATH) with argv; its stdout
// and stderr go to `log` when given, its stdout to `output` instead when that
// is given too. Returns the exit status (128+signal when it was killed).
// With a timeout, the child and every process it started are killed when it
// has not ended after that many seconds, and the result is kTimedOut.
constexpr int kTimedOut = 124;  // as timeout(1)
int run_subprocess(std::vector<std::string> argv, const std::string& log = "", const std::string& output = "",
                   double timeout_seconds = 0);

// The same, without waiting (a pool of children: sweep): the child's pid.
// With own_process_group, the child leads a process group of its own.
pid_t start_subprocess(std::vector<std::string> argv, const std::string& log = "", const std::string& output = "",
                       bool own_process_group = false);
// A command given as one option ("mpirun.openmpi --oversubscribe", sbatch
// arguments) as its words, split on white space.
std::vector<std::string> command_words(const std::string& text);

// The exit status a waitpid status stands for: 128+signal when killed.
int exit_status_of(int wait_status);

}  // namespace progsim::cli
