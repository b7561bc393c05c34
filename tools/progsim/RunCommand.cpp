// progsim run and its mpiexec forms: read the options, then simulate the
// program.

#include "progsim/Commands.hpp"
#include "progsim/LaunchOptions.hpp"
#include "progsim/OutputPaths.hpp"

#include "MpiModel.hpp"
#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "sim/Placement.hpp"
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

void print_run_help(LaunchForm form)
{
  std::string policies;
  for (const mpi::PolicyDescription* p : mpi::policy_catalog())
    policies += "                          " + p->name + ": " + p->summary + "\n";
  std::fputs(form == LaunchForm::Run
                 ? "Usage: progsim run [options] PROGRAM [ARGS...]\n"
                   "\n"
                   "Runs PROGRAM (built with progsim-cc or progsim-cxx) as N MPI ranks inside one\n"
                   "deterministic SimGrid simulation. The same inputs give byte-identical output.\n"
                   "progsim-mpiexec (or 'progsim -n N PROGRAM') is the same as mpiexec.\n"
                 : "Usage: progsim-mpiexec [options] PROGRAM [ARGS...]\n"
                   "       progsim -n N [options] PROGRAM [ARGS...]\n"
                   "\n"
                   "mpiexec for MPI programs built with progsim-cc or progsim-cxx: runs PROGRAM as N\n"
                   "MPI ranks inside one deterministic SimGrid simulation, as 'progsim run' does,\n"
                   "and reads MPIEXEC_TIMEOUT. The usual options of Open MPI's mpirun, MPICH's\n"
                   "mpiexec and SimGrid's smpirun are mapped onto progsim's placement and\n"
                   "environment; an option progsim cannot honour is refused with the reason.\n"
                   "CMake's find_package(MPI) finds it as mpiexec.progsim, next to mpicc.progsim,\n"
                   "with -DMPI_EXECUTABLE_SUFFIX=.progsim -DMPI_HOME=PREFIX (or PREFIX/bin in PATH);\n"
                   "or as mpiexec, next to mpicc, with PREFIX/libexec/progsim/mpi/bin first in PATH\n"
                   "(the plain MPI names, for any build system or test harness).\n"
                   "-DMPIEXEC_PREFLAGS=... passes progsim's own options (--progress, --cfg, ...).\n",
             stdout);
  std::printf(
      "\n"
      "Options:\n"
      "  -n, -np N               number of ranks (default 1; also -nN, -npN, --np N)\n"
      "  --platform FILE.xml     SimGrid platform (default: the bundled 128-node cluster,\n"
      "                          platforms/cluster-128.xml; also -platform, as smpirun)\n"
      "  --hostfile FILE         hosts to use, in order: 'name', 'name:slots' or 'name slots=N'\n"
      "                          (also -hostfile, -f, -machinefile, --machinefile)\n"
      "  -H, --host LIST         hosts to use, in order: 'h1:2,h2:2' or 'h1,h2' (also -host,\n"
      "                          -hosts); a host without ':slots' takes --ranks-per-node ranks\n"
      "  --ranks-per-node K      ranks on each host listed without a slot count (default 1;\n"
      "                          also -N, --npernode, -ppn)\n"
      "  --map-by slot|node|core slot: fill a host's slots before the next host (default);\n"
      "                          node: one rank per host in turn; core: as slot, but a host\n"
      "                          without a slot count takes one rank per core\n"
      "  --oversubscribe         more ranks than slots: the slots are dealt out again (ranks on\n"
      "                          a host share its cores in the simulation, as they always do)\n"
      "  --display-map           print the placement used (hosts, cores, ranks) on stderr\n"
      "  -x VAR[=VALUE]          set VAR in the ranks' environment (without VALUE: progsim's\n"
      "                          own VAR, which the ranks see anyway); also -genv VAR VALUE\n"
      "  --bind-to WHAT          accepted without effect (said on stderr): ranks are not bound\n"
      "  --progress POLICY       progress policy (default weak):\n"
      "%s"
      "  --cfg KEY=VALUE         set a model parameter; '--cfg help' lists them all\n"
      "  --params FILE.json      model parameters from FILE's \"cfg\" object (as written by\n"
      "                          progsim calibrate); --cfg on the command line wins\n"
      "  --report FILE.json      write a JSON report of the run\n"
      "  --timeline FILE         write a timeline of the run: ranks' user code, MPI calls,\n"
      "                          blocked and polling intervals, progress chunks by executor,\n"
      "                          messages. Chrome trace-event JSON (open in ui.perfetto.dev)\n"
      "                          unless FILE ends in .paje or .trace (Paje, for ViTE/pajeng)\n"
      "  --timeline-format chrome|paje|summary   the timeline's format, whatever FILE's\n"
      "                          name; summary: the bounded multi-resolution summary the\n"
      "                          HTML report draws (compare --html), JSON\n"
      "  --timeline-ranks LIST   record only these ranks (0,2,8-15) in the timeline (messages\n"
      "                          from or to them)\n"
      "  --timeline-window T0:T1 record only what happens between T0 and T1 (simulated\n"
      "                          seconds; either may be empty: '1.5:'), intervals clipped\n"
      "  --timeline-max-events N stop recording after N events (default 1000000, about\n"
      "                          150 MB of JSON; 0: no cap); the file's metadata and\n"
      "                          stderr say when and where the cap was reached\n"
      "  --privatize=on|off      private globals per rank (default on; off for programs without\n"
      "                          writable globals, or for very large runs)\n"
      "  --tag-output            prefix each output line with [rank]\n"
      "  --strict                MPI objects never freed before MPI_Finalize (leaks) and\n"
      "                          undefined outcomes (conflicting RMA accesses, MPI-4.1\n"
      "                          §12.7) are errors (outcome erroneous), not only warnings;\n"
      "                          the same as --cfg strict=yes\n"
      "  --check buffers         report accesses of the program to the buffer of a pending\n"
      "                          nonblocking or persistent send or receive (page\n"
      "                          protection; as --cfg check-buffers=yes)\n"
      "  --time-limit SECONDS    stop at this simulated time (outcome 'stuck')\n"
      "  --host-time-limit SECONDS, --timeout SECONDS\n"
      "                          stop after this much host (wall-clock) time, as mpirun's\n"
      "                          --timeout (outcome 'interrupted', exit status 142)\n"
      "  --record FILE|DIR/      write a trace of the run (docs/traces.md): one file, or one\n"
      "                          file per rank in DIR; replay it with 'progsim replay'\n"
      "  --otf2 DIR              write an OTF2 archive of the run's MPI calls and messages\n"
      "                          (DIR/traces.otf2; Vampir, otf2-print; simulated time in ns\n"
      "                          ticks); DIR must not hold one already. 'progsim replay\n"
      "                          DIR/traces.otf2' replays it (docs/traces.md)\n"
      "  -h, --help              this text\n"
      "\n"
      "Environment (options on the command line win):\n"
      "  PROGSIM_PROGRESS        the default progress policy\n"
      "  PROGSIM_PLATFORM        the default platform file\n"
      "  PROGSIM_CFG             --cfg settings separated by spaces ('eager-threshold=0 ...')\n"
      "  MPIEXEC_TIMEOUT         progsim-mpiexec and 'progsim -n' only: as both --time-limit\n"
      "                          and --host-time-limit SECONDS, whichever comes first (0: none)\n"
      "  PROGSIM_PROGRESS_LINE   0: no progress line (on a terminal, a long run shows its\n"
      "                          simulated time and ranks on stderr; never in files or pipes)\n"
      "\n"
      "Exit status: 0 completed; 2 usage or input error (also a forced collective\n"
      "algorithm, --cfg coll-<name>, that does not apply to a call: the run ends there,\n"
      "outcome aborted); 3 deadlock (also a livelock); 4 stuck; 5 erroneous (every rank\n"
      "finished, but the program broke a rule of the MPI standard, e.g. a collective\n"
      "mismatch: the report's \"errors\"); MPI_Abort's error code (1 if it is 0) when\n"
      "aborted; 128+signal when a rank crashed or progsim was interrupted (SIGINT,\n"
      "SIGTERM); 70 for an internal error.\n",
      policies.c_str());
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

// --timeline-ranks/-window/-max-events restrict a timeline: without one, or
// naming a rank the run does not have, they are a mistake.
void check_timeline_selection(const sim::RunOptions& options)
{
  const sim::TimelineSelection& s = options.timeline_selection;
  bool restricted =
      !s.ranks.empty() || s.from > 0 || s.to >= 0 || s.max_events != sim::TimelineSelection::kDefaultMaxEvents;
  if (restricted && options.timeline_file.empty())
    throw sim::InputError{"--timeline-ranks, --timeline-window and --timeline-max-events need --timeline FILE"};
  if (!s.ranks.empty() && s.ranks.back() >= options.nranks)
    throw sim::InputError{"--timeline-ranks: rank " + std::to_string(s.ranks.back()) + " does not exist (the run has " +
                          std::to_string(options.nranks) + " ranks)"};
}

// Before anything runs: a finished simulation whose results cannot be
// written is worth nothing.
void check_output_paths(const sim::RunOptions& options, const std::string& record_path, const std::string& otf2_dir)
{
  if (!otf2_dir.empty()) {
    struct stat st {};
    if (::stat(otf2_dir.c_str(), &st) == 0 && !S_ISDIR(st.st_mode))
      throw sim::InputError{"--otf2 " + otf2_dir + ": not a directory"};
    if (::stat((otf2_dir + "/traces.otf2").c_str(), &st) == 0)
      throw sim::InputError{"--otf2 " + otf2_dir + ": already holds an OTF2 archive (traces.otf2); OTF2 archives "
                            "are not overwritten: remove it or choose another directory"};
  }
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

std::vector<simgrid::s4u::Host*> placement_of(const sim::Simulation& simulation)
{
  std::vector<simgrid::s4u::Host*> hosts;
  for (int r = 0; r < simulation.size(); ++r)
    hosts.push_back(simulation.rank(r).host());
  return hosts;
}

int launch(int argc, char** argv, LaunchForm form)
{
  try {
    LaunchRequest request = parse_launch_options(argc, argv, form);
    sim::RunOptions& options = request.options;
    if (request.help) {
      print_run_help(form);
      return 0;
    }
    if (request.cfg_help) {
      mpi::MpiModel model(options.policy);
      std::fputs(sim::Simulation::parameter_help(model).c_str(), stdout);
      return 0;
    }
    if (options.program.empty())
      throw sim::InputError{"no program to run (usage: " + std::string(argv[0]) + " -n N PROGRAM [ARGS...])"};
    options.timeline_format = sim::timeline_format(options.timeline_file, options.timeline_format);
    check_output_paths(options, request.record_path, request.otf2_dir);
    check_timeline_selection(options);
    for (const std::string& note : request.notes)
      std::fprintf(stderr, "progsim: note: %s\n", note.c_str());

    mpi::MpiModel model(options.policy);
    sim::Simulation simulation(options, model);
    if (request.display_map) {
      std::fputs(sim::describe_placement(placement_of(simulation), options.map_by).c_str(), stderr);
      std::fflush(stderr);
    }
    if (!request.record_path.empty() || !request.otf2_dir.empty()) {
      try {
        traces::start_recording(request.record_path, request.otf2_dir, options.nranks,
                                recording_about(simulation.options()));
      } catch (const traces::TraceError& e) {
        throw sim::InputError{e.what()};
      }
      // A crash ends the process from its signal handler: the OTF2 archive
      // (buffered, unlike the progsim trace) is completed there.
      simulation.on_end_from_signal([](double end) {
        try {
          traces::stop_recording(end);
        } catch (const traces::TraceError& e) {
          std::fprintf(stderr, "progsim: error: %s\n", e.what());
        }
      });
    }
    sim::RunResult result = simulation.run();
    try {
      traces::stop_recording(result.simulated_time);
    } catch (const traces::TraceError& e) {
      std::fprintf(stderr, "progsim: error: %s\n", e.what());
      return result.exit_status == 0 ? sim::kExitUsageError : result.exit_status;
    }
    return result.exit_status;
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim: error: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace

int run_command(int argc, char** argv)
{
  return launch(argc, argv, LaunchForm::Run);
}

int mpiexec_command(int argc, char** argv)
{
  return launch(argc, argv, LaunchForm::Mpiexec);
}

}  // namespace progsim::cli
