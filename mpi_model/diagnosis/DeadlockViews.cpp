#include "diagnosis/DeadlockViews.hpp"

#include "progress/ProgressEngine.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Rank.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/MemoryWatch.hpp"

namespace progsim::mpi {

namespace {

std::string at(const std::string& source)
{
  return source.empty() ? "" : " at " + source;
}

void view_polling(RankView& view, const sim::Rank& rank, const sim::memory::PollInfo& poll, const std::string& program)
{
  view.state = RankView::Polling;
  view.watch = poll.description;
  view.offset = poll.offset;
  view.since = poll.since;
  view.left_mpi_at = rank.left_mpi_at;
  // A replay's rank waits at its trace's memory_wait event (MemoryWatch::replay_wait).
  view.source = rank.trace_location();
  if (view.source.empty())
    view.source = sim::memory::describe_program_location(poll.pc, program);
  view.last_call = rank.last_call();
  view.activity = "polling watched memory '" + poll.description + "'" + at(view.source) + " in user code since " +
                  sim::format_time(poll.since) + ", out of MPI since its last MPI call (" + rank.last_call() +
                  ") returned at " + sim::format_time(rank.left_mpi_at);
}

void view_blocked(RankView& view, const RankProgress& rp, const std::vector<const WaitForSource*>& sources,
                  const std::string& program)
{
  for (const WaitForSource* source : sources)
    source->wait_edges(view.rank, view.edges);
  view.call = rp.waiting_for();
  view.source = rp.sim_rank().trace_location();
  if (view.source.empty())
    view.source = sim::memory::describe_program_location(rp.call_site(), program);
  view.last_call = rp.sim_rank().last_call();
  // A loop of test calls that find nothing (a livelock) is held in its last
  // one, like a blocked call (RankProgress::hold_test).
  view.livelocked = rp.held_in_test();
  view.since = view.livelocked ? rp.test_loop_since() : rp.waiting_since();
  view.tests_in_a_row = rp.tests_in_a_row();
  if (view.edges.empty())
    for (const WaitForSource* source : sources)
      if (view.own_pending.empty())
        view.own_pending = source->pending(view.rank);
}

}  // namespace

std::vector<RankView> build_rank_views(const ProgressEngine& progress, const std::vector<const WaitForSource*>& sources,
                                       const std::string& program)
{
  std::vector<RankView> views(static_cast<size_t>(progress.size()));
  for (int r = 0; r < progress.size(); ++r) {
    RankView& view = views[static_cast<size_t>(r)];
    view.rank = r;
    const RankProgress& rp = progress.rank(r);
    const sim::Rank& rank = rp.sim_rank();
    if (rank.state() == sim::RankState::Finished || rank.state() == sim::RankState::Failed) {
      view.state = RankView::Finished;
      view.finish_time = rank.finish_time;
    } else if (const sim::memory::PollInfo* poll = sim::memory::MemoryWatch::instance().poll_info(r)) {
      view_polling(view, rank, *poll, program);
    } else {
      view_blocked(view, rp, sources, program);
    }
  }
  return views;
}

const WaitEdge* next_edge(const RankView& view)
{
  for (const WaitEdge& e : view.edges)
    if (e.to >= 0)
      return &e;
  return nullptr;
}

}  // namespace progsim::mpi
