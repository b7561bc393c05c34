// The program `progsim replay` runs in every rank (RankReplay performs the
// rank's events). Built as a progsim program (marker, no privatization: the
// scratch buffers are shared by all ranks, whose data does not matter).
#include "traces/replay/RankReplay.hpp"

#include "MpiModel.hpp"
#include "p2p/PointToPoint.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/StackArena.hpp"

#include <cstdlib>
#include <memory>
#include <string>

namespace {

// Probed once, by the first rank to start (all ranks share this program and
// this object: a copy in each rank's frame held its JSON header all along).
const progsim::traces::TraceInfo& trace_info(const std::string& path)
{
  static const progsim::traces::TraceInfo info = [&path] {
    progsim::traces::TraceInfo probed = progsim::traces::probe_trace(path);
    probed.compute_scale = progsim::sim::Simulation::current()->parameters().otf2_compute_scale;
    return probed;
  }();
  return info;
}

// PROGSIM_REPLAY_STACK_REPORT (set, any value): as its replay ends, each
// rank writes what its stack used, a line on stderr. A replayed rank's
// stack stays within its top page (issue 19: one resident page per rank,
// a million ranks in 24 GiB), which nothing else would notice it leaving:
// traces.replay.stack_pages.* replay the deepest paths and reads these
// lines. Measured only on stacks from the stack arena (guard-pages=0, or
// 4,096 ranks and more): untouched zero memory of their own. Out of main's
// frame, which every replayed call runs below.
[[gnu::noinline, gnu::cold]] void report_stack(int rank)
{
  static const bool wanted = std::getenv("PROGSIM_REPLAY_STACK_REPORT") != nullptr;
  if (!wanted)
    return;
  int here = 0;
  progsim::sim::memory::StackArena::Usage usage;
  if (!progsim::sim::memory::StackArena::usage(&here, usage)) {
    progsim::sim::diag("replay stack of rank " + std::to_string(rank) +
                       ": not measured (not from the stack arena: guard pages, or AddressSanitizer)");
    return;
  }
  progsim::sim::diag("replay stack of rank " + std::to_string(rank) + ": " + std::to_string(usage.resident_pages) +
                     " page(s) resident of " + std::to_string(usage.slot_bytes) + " bytes, deepest byte written " +
                     std::to_string(usage.deepest) + " bytes below the top");
}

}  // namespace

int main(int argc, char** argv)
{
  using namespace progsim;
  sim::Rank* rank = sim::calling_rank();
  if (!rank || argc != 2) {
    sim::diag("the replay program runs inside 'progsim replay TRACE'");
    return 2;
  }
  try {
    const traces::TraceInfo& info = trace_info(argv[1]);
    // The replay's buffers are scratch (RankReplay): a 64 KiB halo kept as
    // an unexpected message held 64 KiB per rank for nothing.
    mpi::MpiModel::instance().p2p().drop_program_data();
    // On the heap, not in this frame: every call the replay makes runs on the
    // rank's stack below this frame, and the deepest of them (a trace line's
    // JSON parse, an allreduce's next round) must stay within the stack's top
    // page, the one page a replayed rank keeps resident (issue 19: its ~500
    // bytes here pushed both past 4 KiB, a second page per rank).
    auto replay = std::make_unique<traces::RankReplay>(*rank, argv[1], info);
    replay->run();
    report_stack(rank->id());
    return replay->exit_code();  // the recorded main's status (its `exit` event)
  } catch (const traces::TraceError& e) {
    sim::Simulation::current()->end_run(sim::Outcome::Aborted, std::string("replay: ") + e.what(),
                                        sim::kExitUsageError);
  }
  return 0;
}
