// Passive-target synchronization (MPI-4.1 §12.5.3): the origin locks a
// target's window (shared or exclusive), and unlocking completes its
// operations there before the lock is released. MPI_MODE_NOCHECK: no lock
// protocol at all (the program guarantees no conflicting lock).

#include "rma/Epochs.hpp"

#include "MpiModel.hpp"
#include "rma/EpochCompletion.hpp"
#include "rma/RmaEngine.hpp"

namespace progsim::mpi::rma {

namespace {

// Blocks until a reply (a grant, an unlock acknowledgement) was taken from
// every target; each reply is consumed once.
void take_replies(const CallContext& caller, Window& w, BlockedRma::What what, const std::vector<int>& targets,
                  bool (RmaEngine::*take)(Window&, int), const std::string& describe)
{
  RmaEngine& engine = caller.model().rma();
  std::vector<bool> taken(w.locks.size(), false);
  engine.block(
      caller.world(), {what, w.shared, w.me, targets, false},
      [&] {
        bool all = true;
        for (int t : targets) {
          auto i = static_cast<size_t>(t);
          taken[i] = taken[i] || (engine.*take)(w, t);
          all = all && taken[i];
        }
        return all;
      },
      describe);
}

void lock_targets(const CallContext& caller, Window& w, const std::vector<int>& targets, int type, bool nocheck)
{
  RmaEngine& engine = caller.model().rma();
  for (int t : targets) {
    w.lock_nocheck[static_cast<size_t>(t)] = nocheck;
    if (!nocheck)
      engine.request_lock(w, t, type);
  }
  if (nocheck)
    return;
  take_replies(caller, w, BlockedRma::Grant, targets, &RmaEngine::take_grant,
               describe_call(caller, w) + ", waiting for the lock of rank(s) " + rank_list(w, targets));
}

void unlock_targets(const CallContext& caller, Window& w, const std::vector<int>& targets)
{
  RmaEngine& engine = caller.model().rma();
  complete_operations(caller, w, targets);
  forget_lock_accesses(w, caller.world(), targets);  // complete at the targets: visible there
  engine.local_accesses().completed_at_targets(w, caller.world(), targets);
  std::vector<int> waiting;
  for (int t : targets)
    if (!w.lock_nocheck[static_cast<size_t>(t)]) {
      engine.request_unlock(w, t);
      waiting.push_back(t);
    }
  take_replies(caller, w, BlockedRma::UnlockAck, waiting, &RmaEngine::take_unlock_ack,
               describe_call(caller, w) + ", waiting for rank(s) " + rank_list(w, waiting) + " to release the lock");
  for (int t : targets) {
    w.locks[static_cast<size_t>(t)] = 0;
    w.lock_nocheck[static_cast<size_t>(t)] = false;
  }
}

}  // namespace

void lock(const CallContext& caller, Window& w, int target, int type, bool nocheck)
{
  lock_targets(caller, w, {target}, type, nocheck);
  w.locks[static_cast<size_t>(target)] = type;
}

void unlock(const CallContext& caller, Window& w, int target)
{
  unlock_targets(caller, w, {target});
}

void lock_all(const CallContext& caller, Window& w, bool nocheck)
{
  lock_targets(caller, w, all_targets(w), MPI_LOCK_SHARED, nocheck);
  w.lock_all = true;
}

void unlock_all(const CallContext& caller, Window& w)
{
  unlock_targets(caller, w, all_targets(w));
  w.lock_all = false;
}

void flush(const CallContext& caller, Window& w, const std::vector<int>& targets, bool at_target)
{
  // Local completion is implemented as remote completion (stronger, allowed).
  complete_operations(caller, w, targets);
  // MPI_Win_flush(_all) makes the updates visible at the targets; after
  // MPI_Win_flush_local another MPI may still be applying them.
  if (at_target) {
    forget_lock_accesses(w, caller.world(), targets);
    caller.model().rma().local_accesses().completed_at_targets(w, caller.world(), targets);
  }
}

}  // namespace progsim::mpi::rma
