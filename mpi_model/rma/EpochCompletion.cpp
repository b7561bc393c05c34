// What the epochs of one-sided synchronization share: the members of a
// window, the wait for remote completion, and how a blocked call is named.

#include "rma/Epochs.hpp"

#include "MpiModel.hpp"
#include "rma/EpochCompletion.hpp"
#include "rma/RmaEngine.hpp"

#include <algorithm>

namespace progsim::mpi::rma {

std::vector<int> all_targets(const Window& w)
{
  std::vector<int> targets;
  for (int t = 0; t < w.shared->size(); ++t)
    targets.push_back(t);
  return targets;
}

std::vector<int> local_ranks(const Window& w, const Group& group)
{
  std::vector<int> ranks;
  for (int world : group.world_ranks())
    ranks.push_back(w.shared->group->local_rank(world));
  return ranks;
}

std::string rank_list(const Window& w, const std::vector<int>& locals)
{
  std::string text;
  for (int l : locals)
    text += (text.empty() ? "" : ", ") + std::to_string(w.shared->world_rank(l));
  return text;
}

std::string describe_call(const CallContext& caller, const Window& w)
{
  return std::string(caller.call()) + "(" + (w.name.empty() ? w.shared->name() : w.name) + ")";
}

void complete_operations(const CallContext& caller, Window& w, const std::vector<int>& targets)
{
  RmaEngine& engine = caller.model().rma();
  engine.release_deferred(w.shared, w.me, true);
  engine.block(
      caller.world(), {BlockedRma::Acks, w.shared, w.me, targets, false},
      [&engine, &w, &targets] {
        return std::all_of(targets.begin(), targets.end(), [&](int t) { return engine.acked(w, t); });
      },
      describe_call(caller, w) + ", waiting for its RMA operations to complete at rank(s) " + rank_list(w, targets));
  completed_at_origin(caller, w, targets);
}

// MPI-4.1 §12.3: an RMA operation's buffers are the program's again once the
// operation completed at the origin, which the synchronization calls
// (fence, complete, unlock, flush) ensure, whether or not the program waits
// for the request of a request-based one (§12.3.5).
void completed_at_origin(const CallContext& caller, Window& w, const std::vector<int>& targets)
{
  auto& ops = w.guarded_operations;
  auto done = [&](const std::pair<int, RequestPtr>& op) {
    if (std::find(targets.begin(), targets.end(), op.first) == targets.end())
      return false;
    caller.model().pending_buffers().disarm(*op.second);
    return true;
  };
  ops.erase(std::remove_if(ops.begin(), ops.end(), done), ops.end());
}

bool passive_epoch(const Window& w, int target)
{
  return w.lock_all || w.locks[static_cast<size_t>(target)] != 0;
}

}  // namespace progsim::mpi::rma
