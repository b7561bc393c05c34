// progsim sweep --slurm: the points not yet complete as one Slurm job array
// (sbatch --array, one point per task). Each task runs `progsim sweep
// --point K`, the very code a local sweep runs, so a point's directory is
// the same whichever ran it; the results are gathered from them when the
// array has ended. No distribution layer of progsim's own: the scheduler
// the cluster has places the tasks.
#pragma once

#include "progsim/SweepSpec.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace progsim::cli {

// "0-3,5,7-9": sbatch's --array list of the indexes (sorted).
std::string array_list(const std::vector<std::size_t>& indexes);

// Writes OUTPUT/slurm/sweep.sbatch, its array the `indexes` (at most
// `array_limit` tasks running at once: Slurm's "%N" throttle; 0: no limit),
// and submits it with `sbatch_args` (and --wait when `wait`). Returns
// sbatch's exit status; `job` is the array's job id when sbatch gave one.
int submit_array(const SweepSpec& spec, const std::vector<std::size_t>& indexes, long array_limit,
                 const std::vector<std::string>& sbatch_args, bool wait, std::string& job);

}  // namespace progsim::cli
