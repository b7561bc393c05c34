#include "progress/RankProgress.hpp"

#include "progress/ProgressEngine.hpp"
#include "sim/Rank.hpp"
#include "sim/memory/CodeLocation.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

RankProgress::RankProgress(ProgressEngine& engine, sim::Rank& rank)
    : engine_(engine), rank_(rank), wakeup_(sg4::Semaphore::create(0))
{
}

int RankProgress::rank() const
{
  return rank_.id();
}

void RankProgress::progress_point()
{
  engine_.policy().on_rank_progress_point(*this);
  // Pop one at a time: running a chunk may yield (CPU cost) and other agents
  // may take chunks from this queue meanwhile.
  while (!host_queue_.empty()) {
    ProgressChunk chunk = std::move(host_queue_.front());
    host_queue_.pop_front();
    engine_.execute(*this, chunk, Executor::Rank);
  }
}

void RankProgress::wait_until(const std::function<bool()>& done, const std::function<std::string()>& describe)
{
  rank_.clock().charge_cpu(engine_.parameters().poll_cost);
  progress_point();
  if (done())
    return;
  sim::RankState before = rank_.state();
  double since = rank_.clock().now();
  waiting_since_ = since;
  rank_.set_blocked_on(&describe);
  call_site_ = engine_.parameters().call_sites ? sim::memory::program_call_site(rank_.call_return_address()) : 0;
  for (;;) {
    // Chunks may have been queued while this rank was not yet waiting (a
    // chunk's cost may yield): run them before deciding to block, or their
    // wake-up would be lost.
    progress_point();
    if (done())
      break;
    if (!host_queue_.empty())
      continue;
    rank_.set_state(sim::RankState::Blocked);
    set_waiting(true);
    engine_.check_deadlock();
    // wake() releases once per wait and clears waiting_, so the semaphore
    // never accumulates releases.
    if (waiting_) {
      rank_.clock().begin_block();
      wakeup_->acquire();
    }
    rank_.set_state(before);
    rank_.clock().charge_cpu(engine_.parameters().poll_cost);
  }
  counters.blocked_time += std::max(0.0, sg4::Engine::get_clock() - since);
  rank_.set_blocked_on(nullptr);
}

const std::string& RankProgress::waiting_for() const
{
  return rank_.blocked_on();
}

double RankProgress::blocked_time(double now) const
{
  return counters.blocked_time + (waiting_ ? now - waiting_since_ : 0.0);
}

void RankProgress::wake()
{
  if (!waiting_)
    return;
  set_waiting(false);
  wakeup_->release();
}

void RankProgress::set_waiting(bool waiting)
{
  if (waiting_ == waiting)
    return;
  waiting_ = waiting;
  if (!ended_)
    engine_.note_waiting(waiting);
}

}  // namespace progsim::mpi
