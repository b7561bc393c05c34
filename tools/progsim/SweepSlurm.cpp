#include "progsim/SweepSlurm.hpp"

#include "progsim/ReportedRun.hpp"
#include "progsim/Subprocess.hpp"
#include "progsim/SweepPoint.hpp"

#include "sim/Diagnostics.hpp"

#include <climits>
#include <cstdlib>
#include <sys/stat.h>

namespace progsim::cli {

namespace {

// 'text' for sh, whatever it holds.
std::string shell_quoted(const std::string& text)
{
  std::string out = "'";
  for (char c : text)
    out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string absolute(const std::string& path)
{
  char buf[PATH_MAX];
  if (!::realpath(path.c_str(), buf))
    throw sim::InputError{path + ": cannot find it"};
  return buf;
}

}  // namespace

std::string array_list(const std::vector<std::size_t>& indexes)
{
  std::string out;
  for (std::size_t k = 0; k < indexes.size();) {
    std::size_t end = k;
    while (end + 1 < indexes.size() && indexes[end + 1] == indexes[end] + 1)
      ++end;
    out += (out.empty() ? "" : ",") + std::to_string(indexes[k]);
    if (end > k)
      out += "-" + std::to_string(indexes[end]);
    k = end + 1;
  }
  return out;
}

int submit_array(const SweepSpec& spec, const std::vector<std::size_t>& indexes, long array_limit,
                 const std::vector<std::string>& sbatch_args, bool wait, std::string& job)
{
  std::string dir = spec.output + "/slurm";
  ::mkdir(spec.output.c_str(), 0777);
  ::mkdir(dir.c_str(), 0777);
  // The task's point index is SLURM_ARRAY_TASK_ID; every path is absolute,
  // since the task starts wherever the cluster's nodes see the shared
  // filesystem. The array is in the script, so that it says what ran.
  std::string array = array_list(indexes) + (array_limit > 0 ? "%" + std::to_string(array_limit) : "");
  std::string script = "#!/bin/sh\n"
                       "#SBATCH --job-name=progsim-sweep\n"
                       "#SBATCH --array=" + array + "\n"
                       "#SBATCH --ntasks=1\n"
                       "#SBATCH --output=" + dir + "/task-%A_%a.out\n"
                       "# One point of a progsim sweep per array task (progsim sweep --help).\n"
                       "exec " + shell_quoted(self_path()) + " sweep --point \"$SLURM_ARRAY_TASK_ID\" --output " +
                       shell_quoted(spec.output) + " " + shell_quoted(absolute(spec.file)) + "\n";
  write_file_atomically(dir + "/sweep.sbatch", script);
  const char* sbatch = std::getenv("PROGSIM_SBATCH");
  std::vector<std::string> argv = {sbatch && *sbatch ? sbatch : "sbatch", "--parsable"};
  if (wait)
    argv.push_back("--wait");
  argv.insert(argv.end(), sbatch_args.begin(), sbatch_args.end());
  argv.push_back(dir + "/sweep.sbatch");
  std::string log = dir + "/sbatch.log";
  int status = run_subprocess(argv, log);
  std::string text = file_text(log);
  // --parsable: "JOBID" or "JOBID;CLUSTER" on the first line.
  job = text.substr(0, text.find_first_of(";\n"));
  if (status == 127)
    throw sim::InputError{argv[0] + ": cannot run it (is Slurm installed? PROGSIM_SBATCH names another sbatch)"};
  return status;
}

}  // namespace progsim::cli
