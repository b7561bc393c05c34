// The synchronization of one-sided communication (MPI-4.1 §12.5) as one
// member process performs it: fence (active target, collective), PSCW
// (general active target) and passive target (lock/unlock, lock_all,
// flush). The bindings check the arguments and the epoch state
// (MPI_ERR_RMA_SYNC) and call these.
//
// Blocking steps block through the RMA engine (RmaEngine::block): the rank
// progresses meanwhile, and a deadlock report says what it waits for
// (diagnosis/RmaWaits). The implementation freedoms are --cfg options:
// win-start-blocks, win-complete-remote, rma-issue.
#pragma once

#include "core/CallContext.hpp"
#include "rma/Window.hpp"

#include <string>
#include <vector>

namespace progsim::mpi::rma {

// --- shared by the epochs (EpochCompletion.cpp) -----------------------------
// Every member of the window, as local ranks.
std::vector<int> all_targets(const Window& w);
// Waits until the operations to `targets` (local ranks) are complete at the
// targets (remote completion).
void complete_operations(const CallContext& caller, Window& w, const std::vector<int>& targets);
// The operations to `targets` completed at the origin (a synchronization
// call waited for them): the program may use their buffers again.
void completed_at_origin(const CallContext& caller, Window& w, const std::vector<int>& targets);
// "MPI_Win_fence(window 3)": the call on the window, for reports.
std::string describe_call(const CallContext& caller, const Window& w);
// Whether `target` (local rank) is in a passive-target epoch of this member.
bool passive_epoch(const Window& w, int target);

// --- fence (FenceEpoch.cpp, MPI-4.1 §12.5.1) ---------------------------------
// Completes this member's operations and meets the others in a barrier;
// returns the barrier's error class or MPI_SUCCESS.
int fence(const CallContext& caller, Window& w, int assert);

// --- PSCW (PscwEpochs.cpp, MPI-4.1 §12.5.2) ----------------------------------
// MPI_Win_post: opens the exposure epoch to `origins`.
void post(const CallContext& caller, Window& w, const GroupPtr& origins, int assert);
// MPI_Win_start: opens the access epoch to `targets`; blocks for their posts
// when win-start-blocks is set.
void start(const CallContext& caller, Window& w, const GroupPtr& targets, int assert);
// MPI_Win_complete: ends the access epoch once its operations are complete
// (locally, or at the targets with win-complete-remote).
void complete(const CallContext& caller, Window& w);
// MPI_Win_wait: ends the exposure epoch once every origin completed.
void wait_exposure(const CallContext& caller, Window& w);
// MPI_Win_test: sets *flag to whether the exposure epoch ended (then it is
// closed). Written as the test learns it: `flag` is the program's memory.
void test_exposure(const CallContext& caller, Window& w, int* flag);

// --- passive target (PassiveTargetEpochs.cpp, MPI-4.1 §12.5.3) ---------------
// MPI_Win_lock of `target` (local rank), type MPI_LOCK_SHARED/EXCLUSIVE;
// `nocheck` (MPI_MODE_NOCHECK): no lock protocol.
void lock(const CallContext& caller, Window& w, int target, int type, bool nocheck);
// MPI_Win_unlock: completes the operations to `target` and releases its lock.
void unlock(const CallContext& caller, Window& w, int target);
// MPI_Win_lock_all / MPI_Win_unlock_all: the same for every member, shared.
void lock_all(const CallContext& caller, Window& w, bool nocheck);
void unlock_all(const CallContext& caller, Window& w);
// MPI_Win_flush*: completes the operations to `targets` (local ranks);
// `at_target`: MPI_Win_flush(_all), not MPI_Win_flush_local(_all).
void flush(const CallContext& caller, Window& w, const std::vector<int>& targets, bool at_target);

}  // namespace progsim::mpi::rma
