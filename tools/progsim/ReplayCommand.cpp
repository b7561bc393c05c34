// progsim replay: runs a trace instead of a program. The trace is checked
// and its rank count read here; then it is an ordinary `progsim run` of the
// replay program (traces/replay) with the trace as its argument, so replay
// takes every option of run and drives the same MPI model.
#include "progsim/Commands.hpp"
#include "progsim/LaunchOptions.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "traces/TraceSource.hpp"

#include <cstdio>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

namespace progsim::cli {

namespace {

// The coroutine stack of a replayed rank (the smallest stack-size allowed).
// Measured 2026-11-27 (bench/README.md, "Trace replay"): the deepest rank of
// `ctest -R "traces|replay"` (every kind of event, errors, deadlocks, four
// policies) and of a 1,000-rank stencil used 13.7 KiB, so more than 4 times
// that is left. Above 4,095 ranks stacks have no guard page (guard-pages).
constexpr int kReplayStackKiB = 64;

void print_replay_help()
{
  std::printf(
      "Usage: progsim replay [options] TRACE\n"
      "\n"
      "Replays TRACE under any progress policy and platform: a progsim trace (a file, or\n"
      "a directory with one file per rank, written by 'progsim run --record'), or a\n"
      "SimGrid time-independent trace (smpirun -trace-ti: one actions file with every\n"
      "rank, or an index file listing one file per rank), or an OTF2 archive (its\n"
      "anchor file, ending in .otf2: Score-P's MPI events, or 'progsim run --otf2'); the\n"
      "time between an OTF2 rank's MPI calls is replayed as computation scaled by\n"
      "--cfg otf2-compute-scale=F (default 1). See docs/traces.md.\n"
      "\n"
      "Options are those of 'progsim run' (--platform, --hostfile, --ranks-per-node,\n"
      "--progress, --cfg, --report, --time-limit, --tag-output; --cfg stack-size defaults\n"
      "to 64 KiB for a replayed rank, which runs progsim's code only), and\n"
      "  -n N       number of ranks; must match the trace (default: the trace's)\n"
      "  -h, --help this text\n"
      "\n"
      "Exit status as for 'progsim run'; 2 also for a malformed trace (FILE:LINE: reason;\n"
      "OTF2: ARCHIVE: location L (rank R), event I: reason) or an event replay cannot perform.\n");
}

// The directory of libprogsim_trace.so, where the replay program is installed too.
std::string library_directory()
{
  Dl_info info{};
  if (::dladdr(reinterpret_cast<void*>(&traces::probe_trace), &info) == 0 || !info.dli_fname)
    return ".";
  std::string path = info.dli_fname;
  auto slash = path.rfind('/');
  return slash == std::string::npos ? "." : path.substr(0, slash);
}

}  // namespace

int replay_command(int argc, char** argv)
{
  try {
    std::vector<std::string> options;
    std::string trace, ranks;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "-h" || arg == "--help") {
        print_replay_help();
        return 0;
      }
      if (arg == "-n" || arg == "-np" || arg == "--np") {
        if (i + 1 >= argc)
          throw sim::InputError{arg + " needs a value"};
        ranks = argv[++i];
      } else if (arg.rfind("-n=", 0) == 0 || arg.rfind("--np=", 0) == 0) {
        ranks = arg.substr(arg.find('=') + 1);
      } else if (arg.rfind("--privatize", 0) == 0 || arg.rfind("--record", 0) == 0 ||
                 arg.rfind("--otf2", 0) == 0) {
        throw sim::InputError{arg + ": not an option of replay"};
      } else if (int words = option_value_words(arg)) {
        options.push_back(arg);
        for (; words > 0 && i + 1 < argc; --words)
          options.push_back(argv[++i]);
      } else if (!arg.empty() && arg[0] == '-' && arg != "-") {
        options.push_back(arg);
      } else if (trace.empty()) {
        trace = arg;
      } else {
        throw sim::InputError{"more than one trace given ('" + trace + "', '" + arg + "')"};
      }
    }
    if (trace.empty())
      throw sim::InputError{"no trace to replay (usage: progsim replay [options] TRACE)"};
    traces::TraceInfo info;
    try {
      info = traces::probe_trace(trace);
    } catch (const traces::TraceError& e) {
      throw sim::InputError{e.what()};
    }
    if (!ranks.empty() && ranks != std::to_string(info.nranks))
      throw sim::InputError{trace + ": the trace has " + std::to_string(info.nranks) + " ranks, not -n " + ranks};

    // A replayed rank runs progsim's code only, whose deepest stack is known
    // (kReplayStackKiB): the default 8 MiB stack of a rank running a user
    // program is not needed. A --cfg stack-size given to replay comes later
    // and wins.
    // Nor is memory watching: a replay runs no program code that could poll
    // memory (the recorder refuses traces where a rank blocked on a poll),
    // and its windows are scratch: watching them would only cost traps.
    std::vector<std::string> run_args = {"run",   "--privatize=off",
                                         "-n",    std::to_string(info.nranks),
                                         "--cfg", "stack-size=" + std::to_string(kReplayStackKiB),
                                         "--cfg", "memory-watch=no"};
    run_args.insert(run_args.end(), options.begin(), options.end());
    run_args.push_back("--");
    run_args.push_back(library_directory() + "/progsim-replay.so");
    run_args.push_back(trace);
    std::vector<char*> run_argv;
    for (auto& a : run_args)
      run_argv.push_back(a.data());
    run_argv.push_back(nullptr);
    return run_command(static_cast<int>(run_args.size()), run_argv.data());
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim: error: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace progsim::cli
