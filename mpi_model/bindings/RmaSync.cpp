// MPI-4.1 §12.5: RMA synchronization. Fence (active target, collective),
// PSCW (general active target: post/start/complete/wait/test) and passive
// target (lock/unlock, lock_all/unlock_all, flush*, sync).
//
// Blocking calls block through the RMA engine (RankProgress::wait_until):
// the rank progresses meanwhile, and a deadlock report says what it waits
// for (diagnosis/RmaWaits). The implementation freedoms are --cfg options:
// win-start-blocks, win-complete-remote, rma-issue.

#include "bindings/Rma.hpp"
#include "coll/Collectives.hpp"

#include <algorithm>

using namespace progsim;
using namespace progsim::mpi;
using rma::BlockedRma;
using rma::Window;

namespace {

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

// Waits until the operations to `targets` are complete at the targets.
void complete_operations(const Binding& b, Window& w, const std::vector<int>& targets)
{
  rma::RmaEngine& engine = rma_engine(b);
  engine.release_deferred(w.shared, w.me, true);
  engine.block(
      b.world(), {BlockedRma::Acks, w.shared, w.me, targets, false},
      [&engine, &w, &targets] {
        return std::all_of(targets.begin(), targets.end(), [&](int t) { return engine.acked(w, t); });
      },
      describe_call(b, w) + ", waiting for its RMA operations to complete at rank(s) " + rank_list(w, targets));
}

int group_of(const Binding& b, const Window& w, MPI_Group handle, GroupPtr& group)
{
  group = b.model().process(b.world()).groups.find(handle);
  if (!group)
    return window_error(b, w, MPI_ERR_GROUP, handle == MPI_GROUP_NULL ? "MPI_GROUP_NULL" : "unknown group handle");
  for (int world : group->world_ranks())
    if (w.shared->group->local_rank(world) < 0)
      return window_error(b, w, MPI_ERR_GROUP, "rank " + std::to_string(world) + " is not in the window's group");
  return MPI_SUCCESS;
}

bool passive_epoch(const Window& w, int target)
{
  return w.lock_all || w.locks[static_cast<size_t>(target)] != 0;
}

int unlock_targets(const Binding& b, Window& w, const std::vector<int>& targets)
{
  rma::RmaEngine& engine = rma_engine(b);
  complete_operations(b, w, targets);
  std::vector<int> waiting;
  for (int t : targets)
    if (!w.lock_nocheck[static_cast<size_t>(t)]) {
      engine.request_unlock(w, t);
      waiting.push_back(t);
    }
  std::vector<bool> done(w.locks.size(), false);
  engine.block(
      b.world(), {BlockedRma::UnlockAck, w.shared, w.me, waiting, false},
      [&] {
        bool all = true;
        for (int t : waiting) {
          auto i = static_cast<size_t>(t);
          done[i] = done[i] || engine.take_unlock_ack(w, t);
          all = all && done[i];
        }
        return all;
      },
      describe_call(b, w) + ", waiting for rank(s) " + rank_list(w, waiting) + " to release the lock");
  for (int t : targets) {
    w.locks[static_cast<size_t>(t)] = 0;
    w.lock_nocheck[static_cast<size_t>(t)] = false;
  }
  return MPI_SUCCESS;
}

int lock_targets(const Binding& b, Window& w, const std::vector<int>& targets, int type, bool nocheck)
{
  rma::RmaEngine& engine = rma_engine(b);
  for (int t : targets) {
    w.lock_nocheck[static_cast<size_t>(t)] = nocheck;
    if (!nocheck)
      engine.request_lock(w, t, type);
  }
  if (nocheck)
    return MPI_SUCCESS;
  std::vector<bool> granted(w.locks.size(), false);
  engine.block(
      b.world(), {BlockedRma::Grant, w.shared, w.me, targets, false},
      [&] {
        bool all = true;
        for (int t : targets) {
          auto i = static_cast<size_t>(t);
          granted[i] = granted[i] || engine.take_grant(w, t);
          all = all && granted[i];
        }
        return all;
      },
      describe_call(b, w) + ", waiting for the lock of rank(s) " + rank_list(w, targets));
  return MPI_SUCCESS;
}

int flush(const Binding& b, MPI_Win win, int rank, bool all)
{
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!all) {
    if (int err = check_target(b, *w, rank))
      return err;
    if (rank == MPI_PROC_NULL)
      return MPI_SUCCESS;
  }
  std::vector<int> targets = all ? all_targets(*w) : std::vector<int>{rank};
  for (int t : targets)
    if (!passive_epoch(*w, t) && !all)
      return window_error(b, *w, MPI_ERR_RMA_SYNC,
                          "rank " + std::to_string(t) + " is not locked (flush needs a passive-target epoch)");
  // Local completion is implemented as remote completion (stronger, allowed).
  complete_operations(b, *w, targets);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Win_fence(int assert, MPI_Win win)
{
  Binding b("MPI_Win_fence");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->access_group || w->exposure_group || w->lock_all ||
      std::any_of(w->locks.begin(), w->locks.end(), [](int l) { return l != 0; }))
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "a PSCW or passive-target epoch is open");
  complete_operations(b, *w, all_targets(*w));
  // Every member's operations are complete at their targets when it enters
  // the barrier, so every target's memory is final when the barrier ends.
  const Communicator* ic = b.model().communicators().find(w->comm, b.world());
  if (int err = coll::barrier({b, *ic, coll::kBarrierTag}))
    return window_error(b, *w, err, "the fence's barrier failed");
  w->fence_epoch = !(assert & MPI_MODE_NOSUCCEED);
  return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
  Binding b("MPI_Win_post");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->exposure_group)
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "an exposure epoch is already open (MPI_Win_post without MPI_Win_wait)");
  GroupPtr g;
  if (int err = group_of(b, *w, group, g))
    return err;
  w->exposure_group = g;
  rma_engine(b).post(*w, *g, assert & MPI_MODE_NOCHECK);
  return MPI_SUCCESS;
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
  Binding b("MPI_Win_start");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->access_group)
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "an access epoch is already open (MPI_Win_start without MPI_Win_complete)");
  GroupPtr g;
  if (int err = group_of(b, *w, group, g))
    return err;
  rma::RmaEngine& engine = rma_engine(b);
  w->access_group = g;
  w->access_nocheck = assert & MPI_MODE_NOCHECK;
  engine.start(*w, *g);
  if (b.model().parameters().win_start_blocks && !w->access_nocheck) {
    std::vector<int> targets = local_ranks(*w, *g);
    engine.block(
        b.world(), {BlockedRma::Posts, w->shared, w->me, targets, true},
        [&] { return std::all_of(targets.begin(), targets.end(), [&](int t) { return engine.posted(*w, t); }); },
        describe_call(b, *w) + ", waiting for MPI_Win_post of rank(s) " + rank_list(*w, targets));
  }
  return MPI_SUCCESS;
}

int PMPI_Win_complete(MPI_Win win)
{
  Binding b("MPI_Win_complete");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!w->access_group)
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "no access epoch is open (MPI_Win_start first)");
  rma::RmaEngine& engine = rma_engine(b);
  std::vector<int> targets = local_ranks(*w, *w->access_group);
  // The operations can only go once their targets posted.
  engine.block(
      b.world(), {BlockedRma::Posts, w->shared, w->me, targets, false},
      [&] { return std::all_of(targets.begin(), targets.end(), [&](int t) { return engine.posted(*w, t); }); },
      describe_call(b, *w) + ", waiting for MPI_Win_post of rank(s) " + rank_list(*w, targets));
  engine.release_deferred(w->shared, w->me, true);
  if (b.model().parameters().win_complete_remote) {
    complete_operations(b, *w, targets);
  } else {
    // Local completion (MPI-4.1 §12.5.2): the data of gets must be here.
    engine.block(
        b.world(), {BlockedRma::Acks, w->shared, w->me, targets, false},
        [&] { return std::all_of(targets.begin(), targets.end(), [&](int t) { return engine.fetched(*w, t); }); },
        describe_call(b, *w) + ", waiting for the data of its gets from rank(s) " + rank_list(*w, targets));
  }
  engine.complete(*w);
  w->access_group.reset();
  w->access_nocheck = false;
  return MPI_SUCCESS;
}

int PMPI_Win_wait(MPI_Win win)
{
  Binding b("MPI_Win_wait");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!w->exposure_group)
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "no exposure epoch is open (MPI_Win_post first)");
  rma::RmaEngine& engine = rma_engine(b);
  std::vector<int> origins = local_ranks(*w, *w->exposure_group);
  engine.block(b.world(), {BlockedRma::Completes, w->shared, w->me, origins, false},
               [&] { return engine.exposure_done(*w); },
               describe_call(b, *w) + ", waiting for MPI_Win_complete of rank(s) " + rank_list(*w, origins));
  engine.end_exposure(*w);
  return MPI_SUCCESS;
}

int PMPI_Win_test(MPI_Win win, int* flag)
{
  Binding b("MPI_Win_test");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!flag)
    return window_error(b, *w, MPI_ERR_ARG, "null flag");
  if (!w->exposure_group)
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "no exposure epoch is open (MPI_Win_post first)");
  // A test procedure (MPI-4.1 §2.9): every call progresses.
  rma::RmaEngine& engine = rma_engine(b);
  RankProgress& p = b.progress();
  ++engine.win_tests(b.world());
  ++p.counters.tests;
  b.rank()->clock().charge_cpu(b.model().parameters().poll_cost);
  p.progress_point();
  *flag = engine.exposure_done(*w);
  if (!*flag && p.test_found_nothing()) {
    // A livelock: held like MPI_Win_wait until something happens for this rank.
    std::vector<int> origins = local_ranks(*w, *w->exposure_group);
    p.hold_test([&](const std::function<bool()>& woken) {
      engine.block(b.world(), {BlockedRma::Completes, w->shared, w->me, origins, false}, woken,
                   describe_call(b, *w) + ", waiting for MPI_Win_complete of rank(s) " + rank_list(*w, origins));
    });
    *flag = engine.exposure_done(*w);
  }
  if (*flag)
    engine.end_exposure(*w);
  else
    ++p.counters.false_tests;
  return MPI_SUCCESS;
}

int PMPI_Win_lock(int lock_type, int rank, int assert, MPI_Win win)
{
  Binding b("MPI_Win_lock");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (lock_type != MPI_LOCK_SHARED && lock_type != MPI_LOCK_EXCLUSIVE)
    return window_error(b, *w, MPI_ERR_LOCKTYPE, "invalid lock type " + std::to_string(lock_type));
  if (int err = check_target(b, *w, rank))
    return err;
  if (rank == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (passive_epoch(*w, rank))
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "rank " + std::to_string(rank) + " is already locked");
  if (int err = lock_targets(b, *w, {rank}, lock_type, assert & MPI_MODE_NOCHECK))
    return err;
  w->locks[static_cast<size_t>(rank)] = lock_type;
  return MPI_SUCCESS;
}

int PMPI_Win_unlock(int rank, MPI_Win win)
{
  Binding b("MPI_Win_unlock");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (int err = check_target(b, *w, rank))
    return err;
  if (rank == MPI_PROC_NULL)
    return MPI_SUCCESS;
  if (w->lock_all || w->locks[static_cast<size_t>(rank)] == 0)
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "rank " + std::to_string(rank) + " is not locked (MPI_Win_lock)");
  return unlock_targets(b, *w, {rank});
}

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
  Binding b("MPI_Win_lock_all");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->lock_all || std::any_of(w->locks.begin(), w->locks.end(), [](int l) { return l != 0; }))
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "a passive-target epoch is already open");
  if (int err = lock_targets(b, *w, all_targets(*w), MPI_LOCK_SHARED, assert & MPI_MODE_NOCHECK))
    return err;
  w->lock_all = true;
  return MPI_SUCCESS;
}

int PMPI_Win_unlock_all(MPI_Win win)
{
  Binding b("MPI_Win_unlock_all");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!w->lock_all)
    return window_error(b, *w, MPI_ERR_RMA_SYNC, "no MPI_Win_lock_all epoch is open");
  int err = unlock_targets(b, *w, all_targets(*w));
  w->lock_all = false;
  return err;
}


int PMPI_Win_flush(int rank, MPI_Win win)
{
  Binding b("MPI_Win_flush");
  return flush(b, win, rank, false);
}

int PMPI_Win_flush_all(MPI_Win win)
{
  Binding b("MPI_Win_flush_all");
  return flush(b, win, 0, true);
}

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
  Binding b("MPI_Win_flush_local");
  return flush(b, win, rank, false);
}

int PMPI_Win_flush_local_all(MPI_Win win)
{
  Binding b("MPI_Win_flush_local_all");
  return flush(b, win, 0, true);
}

int PMPI_Win_sync(MPI_Win win)
{
  // MPI_WIN_UNIFIED: public and private copies are one (MPI-4.1 §12.4).
  Binding b("MPI_Win_sync");
  Window* w = nullptr;
  return resolve_window(b, win, w);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Win_fence)
PROGSIM_MPI_ALIAS(MPI_Win_post)
PROGSIM_MPI_ALIAS(MPI_Win_start)
PROGSIM_MPI_ALIAS(MPI_Win_complete)
PROGSIM_MPI_ALIAS(MPI_Win_wait)
PROGSIM_MPI_ALIAS(MPI_Win_test)
PROGSIM_MPI_ALIAS(MPI_Win_lock)
PROGSIM_MPI_ALIAS(MPI_Win_unlock)
PROGSIM_MPI_ALIAS(MPI_Win_lock_all)
PROGSIM_MPI_ALIAS(MPI_Win_unlock_all)
PROGSIM_MPI_ALIAS(MPI_Win_flush)
PROGSIM_MPI_ALIAS(MPI_Win_flush_all)
PROGSIM_MPI_ALIAS(MPI_Win_flush_local)
PROGSIM_MPI_ALIAS(MPI_Win_flush_local_all)
PROGSIM_MPI_ALIAS(MPI_Win_sync)
