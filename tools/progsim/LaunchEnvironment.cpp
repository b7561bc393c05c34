#include "progsim/LaunchEnvironment.hpp"

#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/InputFile.hpp"

#include <cstdlib>
#include <sstream>
#include <string>
#include <unistd.h>

namespace progsim::cli {

namespace {

// The variable's value, or empty when it is unset.
std::string variable(const char* name)
{
  const char* value = std::getenv(name);
  return value ? value : "";
}

}  // namespace

void apply_environment_defaults(sim::RunOptions& options, LaunchForm form)
{
  if (std::string policy = variable("PROGSIM_PROGRESS"); !policy.empty()) {
    try {
      mpi::check_policy_name(policy);
    } catch (const sim::InputError& e) {
      throw sim::InputError{"PROGSIM_PROGRESS=" + policy + ": " + e.message};
    }
    options.policy = policy;
  }
  if (std::string platform = variable("PROGSIM_PLATFORM"); !platform.empty()) {
    if (std::string why = sim::input_file_problem(platform); !why.empty())
      throw sim::InputError{"PROGSIM_PLATFORM=" + platform + ": cannot read the platform file" + why};
    options.platform_file = platform;
  }
  // Space-separated settings, applied before the command line's --cfg.
  std::istringstream settings(variable("PROGSIM_CFG"));
  std::string setting;
  while (settings >> setting)
    options.cfg.push_back(parse_cfg_setting("PROGSIM_CFG", setting));

  // MPICH's mpiexec ends a job after MPIEXEC_TIMEOUT seconds of wall-clock
  // time; harnesses set it to bound how long a test may take. A simulated
  // job has two clocks: the limit applies to both, whichever is reached
  // first (--time-limit's outcome stuck; --host-time-limit's interrupted).
  // 0 means no limit, as for Hydra.
  if (form == LaunchForm::Mpiexec) {
    if (std::string timeout = variable("MPIEXEC_TIMEOUT"); !timeout.empty()) {
      char* end = nullptr;
      double seconds = std::strtod(timeout.c_str(), &end);
      if (*end != '\0' || !(seconds >= 0) || seconds > 1e15)
        throw sim::InputError{"MPIEXEC_TIMEOUT=" + timeout + ": not a number of seconds"};
      if (seconds > 0) {
        options.time_limit = seconds;
        options.time_limit_source = "MPIEXEC_TIMEOUT";
        options.host_time_limit = seconds;
        options.host_time_limit_source = "MPIEXEC_TIMEOUT";
      }
    }
  }
}

}  // namespace progsim::cli
