// The options of `progsim run` and of its mpiexec forms (`progsim-mpiexec`,
// `progsim -n N PROGRAM`): progsim's own spellings and the common ones of
// Open MPI's mpirun, MPICH's Hydra mpiexec and SimGrid's smpirun, mapped
// onto progsim's placement (sim/Placement.hpp) and the ranks' environment.
// What progsim cannot honour is refused with the reason, never given
// another meaning.
#pragma once

#include "sim/RunOptions.hpp"

#include <string>
#include <utility>
#include <vector>

namespace progsim::cli {

enum class LaunchForm {
  Run,      // progsim run
  Mpiexec,  // progsim-mpiexec, progsim -n N: also reads MPIEXEC_TIMEOUT, refuses MPMD ':'
};

struct LaunchRequest {
  sim::RunOptions options;
  std::string record_path;                                       // --record
  std::string otf2_dir;                                          // --otf2
  std::vector<std::string> notes;  // options accepted without effect, said on stderr
  bool display_map = false;
  bool help = false;
  bool cfg_help = false;
};

// argv[0] is the command's name; options start at argv[1]. The defaults
// come from the environment (LaunchEnvironment.hpp). Throws sim::InputError.
LaunchRequest parse_launch_options(int argc, char** argv, LaunchForm form);

// How many words follow the option ARG when it is given as "ARG VALUE"
// ("-genv VAR VALUE": 2), for commands that pass options on to run.
int option_value_words(const std::string& arg);

// "KEY=VALUE" (or "KEY:VALUE", as SimGrid writes it) of --cfg and PROGSIM_CFG.
std::pair<std::string, std::string> parse_cfg_setting(const std::string& where, const std::string& text);

}  // namespace progsim::cli
