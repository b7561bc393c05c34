// The body of a rank's actor: runs the program's main() and reports how it ended.
#pragma once

#include "sim/ProgramImage.hpp"

#include <string>
#include <vector>

namespace progsim::sim {

class Rank;
class Simulation;

// Thrown by the exit() wrappers to leave the program's main() from any depth.
struct RankExit {
  int code;
  // exit() runs the rank's atexit/on_exit handlers; _exit(), _Exit() and
  // quick_exit() do not (POSIX _exit, C11 7.22.4.4-5).
  bool run_exit_handlers = true;
};

void run_rank(Simulation& simulation, Rank& rank, ProgramInstance program, const std::vector<std::string>& argv);

// The rank's program has ended with `code` (main returned, or exit() and
// its kin): its exit handlers run, its output is forwarded, and the
// simulation judges the ending (MPI_Finalize called or not).
void end_rank(Simulation& simulation, Rank& rank, int code, bool run_exit_handlers);

// Where share/progsim lives (next to the lib directory of libprogsim.so).
std::string data_directory();

}  // namespace progsim::sim
