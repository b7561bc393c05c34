// ideal: the always-progressing reference implementation of the MPI Forum
// discussions (mpi-progress file 004): every chunk runs the moment it is
// enabled, at no CPU cost, whatever its owner is doing.
//
// "At once" is in the context that enabled it (usually a packet arrival).
// A chunk may yield (waking a rank is a simcall), so chunks of one rank go
// through a FIFO: a chunk enabled while another of the same rank is running
// runs right after it, never before it.

#include "progress/PolicyDescription.hpp"
#include "progress/ProgressEngine.hpp"

#include <deque>

namespace progsim::mpi {

namespace {

class IdealPolicy final : public ProgressPolicy {
public:
  const char* name() const override { return "ideal"; }
  void start(ProgressEngine& engine) override { lanes_.resize(static_cast<size_t>(engine.size())); }
  void dispatch(ProgressEngine& engine, RankProgress& owner, ProgressChunk chunk) override
  {
    Lane& lane = lanes_[static_cast<size_t>(owner.rank())];
    lane.queue.push_back(std::move(chunk));
    if (lane.running)
      return;  // the running dispatch drains it in order
    lane.running = true;
    ++running_;
    while (!lane.queue.empty()) {
      ProgressChunk next = std::move(lane.queue.front());
      lane.queue.pop_front();
      engine.execute(owner, next, Executor::Agent);
    }
    lane.running = false;
    --running_;
  }
  bool agents_busy() const override { return running_ > 0; }

private:
  struct Lane {
    std::deque<ProgressChunk> queue;
    bool running = false;
  };
  std::vector<Lane> lanes_;
  int running_ = 0;
};

}  // namespace

const PolicyDescription& ideal_policy()
{
  static const PolicyDescription description{
      "ideal",
      "always progressing reference: every chunk runs as soon as it is enabled, at no CPU cost",
      ExecutorDescription{"immediate", "#7f7f7f", "at once (ideal)"},
      {},
      no_parameters<IdealPolicy>};
  return description;
}

}  // namespace progsim::mpi
