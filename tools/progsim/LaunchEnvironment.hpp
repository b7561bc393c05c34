// Defaults of a launch taken from the environment, so that a whole test
// suite runs under another policy or platform without being edited:
// PROGSIM_PROGRESS, PROGSIM_PLATFORM, PROGSIM_CFG, and for the mpiexec forms
// MPIEXEC_TIMEOUT (MPICH's job time limit; progsim's is simulated time).
#pragma once

#include "progsim/LaunchOptions.hpp"

namespace progsim::cli {

// Sets what the environment asks for in `options`, before the command line
// is read (its options win). Throws sim::InputError naming the variable.
void apply_environment_defaults(sim::RunOptions& options, LaunchForm form);

}  // namespace progsim::cli
