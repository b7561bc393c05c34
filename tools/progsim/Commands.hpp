// The subcommands of the progsim launcher.
#pragma once

namespace progsim::cli {

// Each returns the process exit status.
int run_command(int argc, char** argv);      // progsim run ...
int compare_command(int argc, char** argv);  // progsim compare ...
int examples_command(int argc, char** argv); // progsim examples ...

}  // namespace progsim::cli
