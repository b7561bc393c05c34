// The program `progsim replay` runs in every rank (RankReplay performs the
// rank's events). Built as a progsim program (marker, no privatization: the
// scratch buffers are shared by all ranks, whose data does not matter).
#include "traces/replay/RankReplay.hpp"

#include "MpiModel.hpp"
#include "p2p/PointToPoint.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Simulation.hpp"

#include <memory>

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
    return replay->exit_code();  // the recorded main's status (its `exit` event)
  } catch (const traces::TraceError& e) {
    sim::Simulation::current()->end_run(sim::Outcome::Aborted, std::string("replay: ") + e.what(),
                                        sim::kExitUsageError);
  }
  return 0;
}
