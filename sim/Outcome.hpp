// How a simulated run ended, and the process exit status that goes with it.
#pragma once

#include <string>

namespace progsim::sim {

enum class Outcome {
  Completed,  // every rank finalized and returned from main
  Deadlock,   // nothing can ever happen again while some rank waits
  Aborted,    // MPI_Abort, a fatal MPI error, or a rank that exited without MPI_Finalize
  Crashed,    // a rank died of a signal (segfault, abort(), ...)
  Stuck,      // the simulated time limit was reached with ranks still running
  Erroneous,  // every rank finished, but the program broke a rule of the MPI standard that
              // progsim detected (a collective mismatch, ...): listed in the report's "errors"
  Interrupted,  // progsim received SIGINT or SIGTERM (Ctrl-C, a killed job)
};

const char* to_string(Outcome outcome);

// Exit statuses of `progsim run` (documented in README.md):
//   0 completed, 2 usage or input error, 3 deadlock, 4 stuck, 5 erroneous,
//   MPI_Abort's error code (1 when it is 0 modulo 256) for aborted runs,
//   1 for other aborts, 128+signal for crashed runs and for runs interrupted
//   by a signal sent to progsim (SIGINT: 130, SIGTERM: 143), 70 for an
//   internal error of progsim (an exception nothing else reported).
constexpr int kExitUsageError = 2;
constexpr int kExitDeadlock = 3;
constexpr int kExitStuck = 4;
constexpr int kExitErroneous = 5;
constexpr int kExitInternalError = 70;  // EX_SOFTWARE of sysexits.h

// The exit status a failing code (a rank's exit code, MPI_Abort's error
// code) gives progsim: what a shell sees of it, and 1 when that is 0, so
// that a failure never reads as success.
constexpr int failure_exit_status(int code)
{
  return code & 0xff ? code & 0xff : 1;
}

}  // namespace progsim::sim
