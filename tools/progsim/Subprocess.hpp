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

// Runs argv[0] (looked up in PATH when it has no /) with argv; its stdout and stderr go to `log` when given, its
// stdout to `output` instead when that is given too. Returns the exit status
// (128+signal when it was killed).
int run_subprocess(std::vector<std::string> argv, const std::string& log = "", const std::string& output = "");

// The same, without waiting (a pool of children: sweep): the child's pid.
pid_t start_subprocess(std::vector<std::string> argv, const std::string& log = "", const std::string& output = "");
// The exit status a waitpid status stands for: 128+signal when killed.
int exit_status_of(int wait_status);

}  // namespace progsim::cli
