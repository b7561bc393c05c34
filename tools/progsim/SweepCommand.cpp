// progsim sweep: an experiment as researchers run it. A spec of programs x
// rank counts x policies x platforms x --cfg values (SweepSpec); each point
// runs as `progsim sweep --point K`, locally on a bounded pool of processes
// or as one task of a Slurm job array (SweepSlurm), into its own directory
// (SweepPoint); the results are gathered from those directories
// (SweepResults). Finished points are never run again.

#include "progsim/Commands.hpp"
#include "progsim/ReportedRun.hpp"
#include "progsim/Subprocess.hpp"
#include "progsim/SweepPoint.hpp"
#include "progsim/SweepResults.hpp"
#include "progsim/SweepSlurm.hpp"
#include "progsim/SweepSpec.hpp"

#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace progsim::cli {

namespace {

void print_sweep_help()
{
  std::printf(
      "Usage: progsim sweep [sweep options] SPEC.json|SPEC.toml\n"
      "\n"
      "Runs every point of SPEC (programs x rank counts x policies x platforms x --cfg\n"
      "values) and writes one table of all of them: OUTPUT/results.csv and\n"
      "results.json (one row per point, in the spec's order: its parameters, then the\n"
      "columns of 'progsim compare', whose --help says what they measure), and\n"
      "results.html (the table, sortable, and per comparison, the points that differ only\n"
      "by their policy, compare's page: timelines, explanations, figures). The same spec\n"
      "gives byte-identical CSV and JSON, locally or on Slurm.\n"
      "\n"
      "Each point runs in OUTPUT/points/ID/ (ID: program, ranks, policy and a hash of all\n"
      "its parameters; its run's report, timeline summary, output and log). Its record,\n"
      "point.json, is written last: a rerun skips the points that have one, so a sweep\n"
      "stopped anywhere (Ctrl-C, a crash, a killed job) goes on where it was, and a spec\n"
      "grown by a value runs only the new points. Sources are compiled once, into\n"
      "OUTPUT/programs/ (again when the source is newer); a point already recorded is\n"
      "not rerun for a changed program: remove OUTPUT/points/ for that.\n"
      "\n"
      "Sweep options:\n"
      "  -j, --jobs N        run at most N points at once (default: the number of cores)\n"
      "  --output DIR        the results directory (default: the spec's \"output\", else\n"
      "                      SPEC's name with .sweep, beside it)\n"
      "  --list              print the points (index, id, complete or not) and run nothing\n"
      "  --point K           run point K only (its index in --list), as a Slurm task does\n"
      "  --gather            run nothing: write the results of the points recorded so far\n"
      "  --slurm             submit the points not yet complete as one Slurm job array\n"
      "                      (sbatch --array, one point per task, each running\n"
      "                      'progsim sweep --point K'), then say how to gather. The\n"
      "                      output directory, the spec, its programs and progsim must be\n"
      "                      on a filesystem that every node sees at the same path\n"
      "  --array-limit N     with --slurm: at most N tasks of the array run at once\n"
      "                      (#SBATCH --array=LIST%%N, Slurm's throttle)\n"
      "  --wait              with --slurm: wait for the array to end (sbatch --wait), then\n"
      "                      gather\n"
      "  --sbatch-args ARGS  with --slurm: further sbatch options, split at spaces\n"
      "                      (\"--partition=debug --time=10\"); PROGSIM_SBATCH names the sbatch\n"
      "                      to run (default: sbatch in PATH)\n"
      "  -h, --help          this text\n"
      "\n"
      "Spec (JSON; paths relative to the spec's directory):\n"
      "  {\n"
      "    \"programs\": [{\"source\": \"ring.c\", \"flags\": [\"-O2\"], \"args\": [\"100\"]},\n"
      "                 {\"name\": \"app\", \"executable\": \"bin/app\"}],\n"
      "    \"ranks\": [2, 4],\n"
      "    \"policies\": [\"weak\", \"thread\", \"offload\", \"ideal\"],\n"
      "    \"platforms\": [\"default\", \"my-cluster.xml\"],\n"
      "    \"cfg\": {\"eager-threshold\": [0, 8192, 65536]},\n"
      "    \"options\": [\"--ranks-per-node\", \"2\"],\n"
      "    \"output\": \"results\"\n"
      "  }\n"
      "\"programs\" and \"ranks\" are required; \"policies\" defaults to every policy,\n"
      "\"platforms\" to progsim's default; \"cfg\" gives each key its values (their product\n"
      "is swept); \"options\" are further 'progsim run' options of every point.\n"
      "\n"
      "A SPEC whose name ends in .toml is TOML, read as the JSON it denotes (tables are\n"
      "objects; a date or time is refused), with the same fields and checks:\n"
      "  ranks = [2, 4]\n"
      "  policies = [\"weak\", \"ideal\"]\n"
      "  [cfg]\n"
      "  eager-threshold = [0, 8192, 65536]\n"
      "  [[programs]]\n"
      "  source = \"ring.c\"\n"
      "  args = [\"100\"]\n"
      "Its errors name SPEC:LINE:COLUMN (a field's: the line of its value).\n"
      "\n"
      "Exit status: 0 when every point has its record (whatever its outcome: a deadlock\n"
      "is a result), 1 when some have none (a run or a Slurm task did not finish; rerun),\n"
      "2 for a usage error, in the spec (named by its field, or by its line for TOML's\n"
      "syntax; \"cfg\" keys and values are checked as progsim run --cfg checks them, before\n"
      "any point runs) or in a point's options (SimGrid's keys, KEY with a '/').\n");
}

struct Options {
  std::string spec_file, output, sbatch_args;
  long jobs = 0;
  long point = -1;
  long array_limit = 0;  // 0: no throttle
  bool list = false, gather = false, slurm = false, wait = false;
};

long parse_count(const std::string& option, const std::string& text, long low)
{
  char* end = nullptr;
  long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < low || n > 1000000000)
    throw sim::InputError{option + " " + text + ": expected a whole number from " + std::to_string(low)};
  return n;
}

Options parse_options(int argc, char** argv)
{
  Options o;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc)
        throw sim::InputError{arg + ": needs a value (progsim sweep --help)"};
      return argv[++i];
    };
    if (arg == "-j" || arg == "--jobs")
      o.jobs = parse_count(arg, value(), 1);
    else if (arg == "--output")
      o.output = value();
    else if (arg == "--point")
      o.point = parse_count(arg, value(), 0);
    else if (arg == "--array-limit")
      o.array_limit = parse_count(arg, value(), 1);
    else if (arg == "--sbatch-args")
      o.sbatch_args = value();
    else if (arg == "--list")
      o.list = true;
    else if (arg == "--gather")
      o.gather = true;
    else if (arg == "--slurm")
      o.slurm = true;
    else if (arg == "--wait")
      o.wait = true;
    else if (!arg.empty() && arg[0] == '-')
      throw sim::InputError{"unknown sweep option " + arg + " (progsim sweep --help)"};
    else if (o.spec_file.empty())
      o.spec_file = arg;
    else
      throw sim::InputError{"one spec only: '" + o.spec_file + "' and '" + arg + "'"};
  }
  if (o.spec_file.empty())
    throw sim::InputError{"no spec (usage: progsim sweep [options] SPEC.json|SPEC.toml)"};
  if ((o.wait || !o.sbatch_args.empty() || o.array_limit > 0) && !o.slurm)
    throw sim::InputError{"--wait, --array-limit and --sbatch-args go with --slurm"};
  if (o.list + o.gather + o.slurm + (o.point >= 0) > 1)
    throw sim::InputError{"--list, --point, --gather and --slurm exclude each other"};
  if (o.jobs == 0) {
    long cores = ::sysconf(_SC_NPROCESSORS_ONLN);
    o.jobs = cores > 0 ? cores : 1;
  }
  return o;
}

std::vector<std::size_t> pending_points(const SweepSpec& spec)
{
  std::vector<std::size_t> pending;
  for (const SweepPoint& point : spec.points)
    if (!point_complete(spec, point))
      pending.push_back(point.index);
  return pending;
}

// Writes the results and says where they are: 0, or 1 when points are missing.
int gather(const SweepSpec& spec)
{
  std::size_t missing = gather_results(spec);
  std::fprintf(stderr, "progsim sweep: %zu points, results in %s/results.csv, results.json, results.html\n",
               spec.points.size(), spec.output.c_str());
  if (missing == 0)
    return 0;
  std::fprintf(stderr, "progsim sweep: %zu points have no result yet (their rows say \"not run\"); rerun to run them\n",
               missing);
  return 1;
}

// The pending points as `progsim sweep --point K` children, at most `jobs`
// at once. Returns 0, or the first failing child's status (2: a usage error
// in a point's options; 128+signal: interrupted), after which no new point starts.
int run_pool(const SweepSpec& spec, const std::vector<std::size_t>& pending, long jobs)
{
  std::map<pid_t, std::size_t> running;
  std::size_t next = 0, done = 0;
  int failure = 0;
  const bool tty = ::isatty(2);
  while (next < pending.size() || !running.empty()) {
    while (failure == 0 && next < pending.size() && static_cast<long>(running.size()) < jobs) {
      std::size_t k = pending[next++];
      pid_t pid = start_subprocess(
          {self_path(), "sweep", "--point", std::to_string(k), "--output", spec.output, spec.file});
      if (pid < 0)
        throw sim::InputError{"cannot start a process for point " + std::to_string(k)};
      running[pid] = k;
    }
    if (running.empty())
      break;
    int status = 0;
    pid_t pid = ::waitpid(-1, &status, 0);
    if (pid < 0)
      break;
    if (!running.erase(pid))
      continue;
    ++done;
    int code = exit_status_of(status);
    if (code != 0 && failure == 0)
      failure = code;
    if (tty)
      std::fprintf(stderr, "\r[%zu/%zu] points run", done, pending.size());
  }
  if (tty)
    std::fputs("\r\033[K", stderr);
  return failure;
}

int submit(const SweepSpec& spec, const Options& o)
{
  compile_programs(spec);
  std::vector<std::size_t> pending = pending_points(spec);
  if (pending.empty()) {
    std::fprintf(stderr, "progsim sweep: every point is complete; nothing to submit\n");
    return gather(spec);
  }
  std::string job;
  int status = submit_array(spec, pending, o.array_limit, command_words(o.sbatch_args), o.wait, job);
  if (status != 0 && !o.wait)
    throw sim::InputError{"sbatch failed (exit status " + std::to_string(status) + "):\n" +
                          file_text(spec.output + "/slurm/sbatch.log")};
  std::fprintf(stderr, "progsim sweep: %zu points submitted as the Slurm job array %s (task logs in %s/slurm/)\n",
               pending.size(), job.c_str(), spec.output.c_str());
  if (o.wait)
    return gather(spec);
  std::fprintf(stderr, "progsim sweep: when it has ended: progsim sweep --gather --output %s %s\n",
               spec.output.c_str(), spec.file.c_str());
  return 0;
}

}  // namespace

int sweep_command(int argc, char** argv)
{
  try {
    for (int i = 1; i < argc; ++i)
      if (std::string(argv[i]) == "-h" || std::string(argv[i]) == "--help") {
        print_sweep_help();
        return 0;
      }
    Options o = parse_options(argc, argv);
    SweepSpec spec = read_sweep_spec(o.spec_file, o.output);
    if (o.list) {
      for (const SweepPoint& point : spec.points)
        std::printf("%zu %s %s %s\n", point.index, point.id.c_str(),
                    point_complete(spec, point) ? "complete" : "pending", point.parameters.dump().c_str());
      return 0;
    }
    if (o.point >= 0) {
      if (static_cast<std::size_t>(o.point) >= spec.points.size())
        throw sim::InputError{"--point " + std::to_string(o.point) + ": the spec has " +
                              std::to_string(spec.points.size()) + " points (0 to " +
                              std::to_string(spec.points.size() - 1) + ")"};
      return run_point(spec, spec.points[static_cast<std::size_t>(o.point)]);
    }
    if (o.gather)
      return gather(spec);
    if (o.slurm)
      return submit(spec, o);
    compile_programs(spec);
    std::vector<std::size_t> pending = pending_points(spec);
    std::fprintf(stderr, "progsim sweep: %zu points, %zu to run (at most %ld at once)\n", spec.points.size(),
                 pending.size(), o.jobs);
    int failure = run_pool(spec, pending, o.jobs);
    if (failure == sim::kExitUsageError)
      return failure;
    int status = gather(spec);
    return failure > 128 ? failure : status;
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim: error: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace progsim::cli
