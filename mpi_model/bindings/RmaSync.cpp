// MPI-4.1 §12.5: RMA synchronization. Fence (active target, collective),
// PSCW (general active target: post/start/complete/wait/test) and passive
// target (lock/unlock, lock_all/unlock_all, flush*, sync). The bindings
// check the arguments and the epoch state (MPI_ERR_RMA_SYNC); the protocols
// are in rma/ (rma/Epochs.hpp).

#include "bindings/Rma.hpp"
#include "rma/Epochs.hpp"

#include <algorithm>

using namespace progsim;
using namespace progsim::mpi;
using rma::Window;

namespace {

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

int flush(const Binding& b, MPI_Win win, int rank, bool all, bool at_target)
{
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!all) {
    if (int err = check_target(b, *w, rank))
      return err;
    if (rank == MPI_PROC_NULL)
      return MPI_SUCCESS;
    if (!rma::passive_epoch(*w, rank))
      return sync_error(b, *w,
                          "rank " + std::to_string(rank) + " is not locked (flush needs a passive-target epoch)");
  }
  rma::flush(b, *w, all ? rma::all_targets(*w) : std::vector<int>{rank}, at_target);
  return MPI_SUCCESS;
}

// MPI-4.1 §12.5: "distinct access epochs for win at the same MPI process
// must be disjoint": a passive-target (`passive`) or PSCW access epoch may
// not open while one of another kind is. nullptr when none is open.
const char* other_access_epoch(const Window& w, bool passive)
{
  if (w.fence_operations)
    return "RMA operations were issued in the fence epoch, which is still open (MPI_Win_fence closes it)";
  if (passive && w.access_group)
    return "a PSCW access epoch is open (MPI_Win_start without MPI_Win_complete)";
  if (!passive && (w.lock_all || std::any_of(w.locks.begin(), w.locks.end(), [](int l) { return l != 0; })))
    return "a passive-target epoch is open (MPI_Win_lock or MPI_Win_lock_all without its unlock)";
  return nullptr;
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
    return sync_error(b, *w, "a PSCW or passive-target epoch is open");
  if (int err = rma::fence(b, *w, assert))
    return window_error(b, *w, err, "the fence's barrier failed");
  return MPI_SUCCESS;
}

int PMPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
  Binding b("MPI_Win_post");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->exposure_group)
    return sync_error(b, *w, "an exposure epoch is already open (MPI_Win_post without MPI_Win_wait)");
  GroupPtr g;
  if (int err = group_of(b, *w, group, g))
    return err;
  rma::post(b, *w, g, assert);
  return MPI_SUCCESS;
}

int PMPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
  Binding b("MPI_Win_start");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->access_group)
    return sync_error(b, *w, "an access epoch is already open (MPI_Win_start without MPI_Win_complete)");
  if (const char* open = other_access_epoch(*w, false))
    return sync_error(b, *w, open);
  GroupPtr g;
  if (int err = group_of(b, *w, group, g))
    return err;
  rma::start(b, *w, g, assert);
  return MPI_SUCCESS;
}

int PMPI_Win_complete(MPI_Win win)
{
  Binding b("MPI_Win_complete");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!w->access_group)
    return sync_error(b, *w, "no access epoch is open (MPI_Win_start first)");
  rma::complete(b, *w);
  return MPI_SUCCESS;
}

int PMPI_Win_wait(MPI_Win win)
{
  Binding b("MPI_Win_wait");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!w->exposure_group)
    return sync_error(b, *w, "no exposure epoch is open (MPI_Win_post first)");
  rma::wait_exposure(b, *w);
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
    return sync_error(b, *w, "no exposure epoch is open (MPI_Win_post first)");
  rma::test_exposure(b, *w, flag);
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
  if (rma::passive_epoch(*w, rank))
    return sync_error(b, *w, "rank " + std::to_string(rank) + " is already locked");
  if (const char* open = other_access_epoch(*w, true))
    return sync_error(b, *w, open);
  rma::lock(b, *w, rank, lock_type, assert & MPI_MODE_NOCHECK);
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
    return sync_error(b, *w, "rank " + std::to_string(rank) + " is not locked (MPI_Win_lock)");
  rma::unlock(b, *w, rank);
  return MPI_SUCCESS;
}

int PMPI_Win_lock_all(int assert, MPI_Win win)
{
  Binding b("MPI_Win_lock_all");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->lock_all || std::any_of(w->locks.begin(), w->locks.end(), [](int l) { return l != 0; }))
    return sync_error(b, *w, "a passive-target epoch is already open");
  if (const char* open = other_access_epoch(*w, true))
    return sync_error(b, *w, open);
  rma::lock_all(b, *w, assert & MPI_MODE_NOCHECK);
  return MPI_SUCCESS;
}

int PMPI_Win_unlock_all(MPI_Win win)
{
  Binding b("MPI_Win_unlock_all");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!w->lock_all)
    return sync_error(b, *w, "no MPI_Win_lock_all epoch is open");
  rma::unlock_all(b, *w);
  return MPI_SUCCESS;
}

int PMPI_Win_flush(int rank, MPI_Win win)
{
  Binding b("MPI_Win_flush");
  return flush(b, win, rank, false, true);
}

int PMPI_Win_flush_all(MPI_Win win)
{
  Binding b("MPI_Win_flush_all");
  return flush(b, win, 0, true, true);
}

int PMPI_Win_flush_local(int rank, MPI_Win win)
{
  Binding b("MPI_Win_flush_local");
  return flush(b, win, rank, false, false);
}

int PMPI_Win_flush_local_all(MPI_Win win)
{
  Binding b("MPI_Win_flush_local_all");
  return flush(b, win, 0, true, false);
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
