// progsim run: parse mpiexec-like options, then simulate the program.

#include "progsim/Commands.hpp"
#include "progsim/OutputPaths.hpp"

#include "MpiModel.hpp"
#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "sim/Simulation.hpp"
#include "traces/Recorder.hpp"
#include "traces/TraceEvent.hpp"
#include "sim/timeline/TimelineFormats.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>
#include <sys/stat.h>

namespace progsim::cli {

namespace {

void print_run_help()
{
  std::string policies;
  for (auto& p : mpi::policy_catalog())
    policies += "                          " + p.name + ": " + p.summary + "\n";
  std::printf(
      "Usage: progsim run [options] PROGRAM [ARGS...]\n"
      "\n"
      "Runs PROGRAM (built with progsim-cc or progsim-cxx) as N MPI ranks inside one\n"
      "deterministic SimGrid simulation. The same inputs give byte-identical output.\n"
      "\n"
      "Options:\n"
      "  -n, -np N               number of ranks (default 1)\n"
      "  --platform FILE.xml     SimGrid platform (default: the bundled 128-node cluster,\n"
      "                          platforms/cluster-128.xml)\n"
      "  --hostfile FILE         hosts to use, in order: 'name', 'name:slots' or 'name slots=N'\n"
      "  --ranks-per-node K      ranks placed on each host, in host order (default 1)\n"
      "  --progress POLICY       progress policy (default weak):\n"
      "%s"
      "  --cfg KEY=VALUE         set a model parameter; '--cfg help' lists them all\n"
      "  --report FILE.json      write a JSON report of the run\n"
      "  --timeline FILE         write a timeline of the run: ranks' user code, MPI calls,\n"
      "                          blocked and polling intervals, progress chunks by executor,\n"
      "                          messages. Chrome trace-event JSON (open in ui.perfetto.dev)\n"
      "                          unless FILE ends in .paje or .trace (Paje, for ViTE/pajeng)\n"
      "  --timeline-format chrome|paje   the timeline's format, whatever FILE's name\n"
      "  --privatize=on|off      private globals per rank (default on; off for programs without\n"
      "                          writable globals, or for very large runs)\n"
      "  --tag-output            prefix each output line with [rank]\n"
      "  --time-limit SECONDS    stop at this simulated time (outcome 'stuck')\n"
      "  --record FILE|DIR/      write a trace of the run (docs/traces.md): one file, or one\n"
      "                          file per rank in DIR; replay it with 'progsim replay'\n"
      "  -h, --help              this text\n"
      "\n"
      "Exit status: 0 completed; 2 usage or input error; 3 deadlock (also a livelock);\n"
      "4 stuck; 5 erroneous (every rank finished, but the program broke a rule of the MPI\n"
      "standard, e.g. a collective mismatch: the report's \"errors\"); MPI_Abort's error\n"
      "code (1 if it is 0) when aborted; 128+signal when a rank crashed or progsim was\n"
      "interrupted (SIGINT, SIGTERM); 70 for an internal error.\n",
      policies.c_str());
}

// Accepts "--opt VALUE" and "--opt=VALUE".
bool take_value(int argc, char** argv, int& i, const std::string& name, std::string& value)
{
  std::string arg = argv[i];
  if (arg == name) {
    if (i + 1 >= argc)
      throw sim::InputError{name + " needs a value"};
    value = argv[++i];
    return true;
  }
  if (arg.rfind(name + "=", 0) == 0) {
    value = arg.substr(name.size() + 1);
    return true;
  }
  return false;
}

int parse_int(const std::string& option, const std::string& text)
{
  char* end = nullptr;
  long value = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || value < 0 || value > 100000000)
    throw sim::InputError{option + ": '" + text + "' is not a valid number"};
  return static_cast<int>(value);
}

double parse_seconds(const std::string& option, const std::string& text)
{
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || value <= 0)
    throw sim::InputError{option + ": '" + text + "' is not a positive number of seconds"};
  return value;
}

// The header of a recorded trace says where it comes from.
nlohmann::ordered_json recording_about(const sim::RunOptions& options)
{
  nlohmann::ordered_json args = options.args;
  return {{"recorded_by", "progsim run"},
          {"program", options.program},
          {"args", args},
          {"policy", options.policy},
          {"platform", options.platform_file},
          {"ranks_per_node", options.ranks_per_node}};
}

// Before anything runs: a finished simulation whose results cannot be
// written is worth nothing.
void check_output_paths(const sim::RunOptions& options, const std::string& record_path)
{
  if (!options.report_file.empty())
    check_writable_file("--report", options.report_file);
  if (!options.timeline_file.empty())
    check_writable_file("--timeline", options.timeline_file);
  if (record_path.empty())
    return;
  // As the trace writer decides: a directory (one file per rank) or a file.
  struct stat st {};
  if (record_path.back() == '/' || (::stat(record_path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)))
    check_writable_directory("--record", record_path);
  else
    check_writable_file("--record", record_path);
}

}  // namespace

int run_command(int argc, char** argv)
{
  sim::RunOptions options;
  bool cfg_help = false;
  std::string record_path;
  try {
    int i = 1;
    for (; i < argc; ++i) {
      std::string arg = argv[i];
      std::string value;
      if (arg == "-h" || arg == "--help") {
        print_run_help();
        return 0;
      }
      if (take_value(argc, argv, i, "-n", value) || take_value(argc, argv, i, "-np", value) ||
          take_value(argc, argv, i, "--np", value))
        options.nranks = parse_int("-n", value);
      else if (take_value(argc, argv, i, "--platform", value))
        options.platform_file = value;
      else if (take_value(argc, argv, i, "--hostfile", value))
        options.hostfile = value;
      else if (take_value(argc, argv, i, "--ranks-per-node", value))
        options.ranks_per_node = parse_int("--ranks-per-node", value);
      else if (take_value(argc, argv, i, "--progress", value)) {
        mpi::check_policy_name(value);
        options.policy = value;
      } else if (take_value(argc, argv, i, "--cfg", value)) {
        if (value == "help") {
          cfg_help = true;
          continue;
        }
        auto eq = value.find_first_of("=:");
        if (eq == std::string::npos || eq == 0)
          throw sim::InputError{"--cfg " + value + ": expected KEY=VALUE (see --cfg help)"};
        options.cfg.emplace_back(value.substr(0, eq), value.substr(eq + 1));
      } else if (take_value(argc, argv, i, "--report", value))
        options.report_file = value;
      else if (take_value(argc, argv, i, "--timeline", value))
        options.timeline_file = value;
      else if (take_value(argc, argv, i, "--timeline-format", value))
        options.timeline_format = sim::timeline_format("", value);
      else if (take_value(argc, argv, i, "--privatize", value)) {
        if (value != "on" && value != "off")
          throw sim::InputError{"--privatize: expected on or off, not '" + value + "'"};
        options.privatize = value == "on";
      } else if (arg == "--tag-output")
        options.tag_output = true;
      else if (take_value(argc, argv, i, "--record", value))
        record_path = value;
      else if (take_value(argc, argv, i, "--time-limit", value))
        options.time_limit = parse_seconds("--time-limit", value);
      else if (arg == "--")
        continue;
      else if (!arg.empty() && arg[0] == '-')
        throw sim::InputError{"unknown option '" + arg + "' (see progsim run --help)"};
      else
        break;
    }
    if (cfg_help) {
      mpi::MpiModel model(options.policy);
      std::fputs(sim::Simulation::parameter_help(model).c_str(), stdout);
      return 0;
    }
    if (i >= argc)
      throw sim::InputError{"no program to run (usage: progsim run -n N PROGRAM [ARGS...])"};
    options.timeline_format = sim::timeline_format(options.timeline_file, options.timeline_format);
    check_output_paths(options, record_path);
    options.program = argv[i++];
    for (; i < argc; ++i)
      options.args.emplace_back(argv[i]);

    mpi::MpiModel model(options.policy);
    sim::Simulation simulation(options, model);
    if (!record_path.empty()) {
      try {
        traces::start_recording(record_path, options.nranks, recording_about(simulation.options()));
      } catch (const traces::TraceError& e) {
        throw sim::InputError{e.what()};
      }
    }
    sim::RunResult result = simulation.run();
    traces::stop_recording();
    return result.exit_status;
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim: error: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace progsim::cli
