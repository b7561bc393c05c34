// A target's own loads and stores against the RMA operations of other
// processes on the same bytes of its window (MPI-4.1 §12.7, rule 1: "A
// location in a window must not be accessed with load/store operations once
// an update to that location has started, until the update becomes visible
// in the private window copy in process memory"; §12.3: "one of them is a
// get operation and the other is a local store access" conflicts too). Like
// the conflicts between RMA operations (AccessConflicts), these leave the
// outcome undefined without making the program erroneous: a StandardError of
// kind UndefinedOutcome (a warning; an error with --strict).
//
// When an origin issues an operation, the target bytes it reads or updates
// are recorded for the target member, and the target's pages holding them
// are guarded by the memory watch (MemoryWatch::guard, owner: the target)
// until the synchronization that completes the operation at the target:
//  - fence: the target's next MPI_Win_fence (every operation of the epoch is
//    complete at the target when it returns);
//  - PSCW: the end of the target's exposure epoch (MPI_Win_wait, or
//    MPI_Win_test returning true) whose MPI_Win_post the origin's access
//    epoch matches; an operation issued before that post was made is not
//    recorded (its epoch is unknown then);
//  - passive target: the origin's MPI_Win_unlock(_all) or MPI_Win_flush(_all)
//    to the target (MPI_Win_flush_local does not complete at the target).
// A store by the target to a recorded byte conflicts with any operation; a
// load only with an update (put, accumulates) in a fence or PSCW epoch.
// Under passive target only stores are checked, and only against puts and
// accumulates that do not fetch: the unified model makes a put "eventually"
// visible to loads without further calls (§12.7, rule 6), which programs
// use to poll a flag, and a fetching operation's result, or a get's
// completion at the origin, tells the origin the target bytes were read, on
// which programs order later accesses.
//
// Guarded are the bytes the memory watch can guard without making other
// memory trap: the whole window part when it is already watched for polling
// (window-watch), the part of MPI_Win_allocate (its own pages), else the
// pages that lie wholly inside the part. Dynamic windows are not checked.
// One finding per target and epoch; the guard goes with it.
#pragma once

#include "rma/Operation.hpp"

#include "sim/memory/MemoryWatch.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <unordered_map>
#include <utility>
#include <vector>

namespace progsim::mpi {
class CallContext;
class MpiModel;
}  // namespace progsim::mpi

namespace progsim::mpi::rma {

struct Window;
struct WindowShared;

enum class EpochKind { Fence, Pscw, Lock };

class LocalAccessConflicts {
public:
  static constexpr std::size_t kMaxAccesses = 1024;

  LocalAccessConflicts();
  ~LocalAccessConflicts();
  LocalAccessConflicts(const LocalAccessConflicts&) = delete;
  LocalAccessConflicts& operator=(const LocalAccessConflicts&) = delete;

  // The calling member of `w` issued `op` in an epoch of `kind`, numbered
  // `epoch` (the fence epoch, the target's post; 0 for passive target).
  void note_operation(const CallContext& caller, Window& w, const Operation& op, EpochKind kind,
                      std::uint64_t epoch);
  // The calling member's epoch of `kind` as a target ends (its MPI_Win_fence,
  // the end of its exposure epoch): the operations of that epoch are complete
  // in its memory.
  void end_epoch(Window& w, EpochKind kind);
  // Passive target: the operations of world rank `origin` to `targets`
  // (local ranks) are complete at the targets (unlock, flush).
  void completed_at_targets(Window& w, int origin, const std::vector<int>& targets);
  // The calling member frees `w`: its guards go before its memory does.
  void release(Window& w);

private:
  struct RemoteAccess {
    std::uintptr_t lo = 0, hi = 0;
    int origin = 0;  // world rank
    OpKind kind = OpKind::Put;
    EpochKind epoch_kind = EpochKind::Fence;
    std::uint64_t epoch = 0;
    const char* call = "";
    std::uintptr_t site = 0;  // diagnosis/CallSites.hpp
  };
  // One target member's window memory.
  struct Target {
    std::shared_ptr<WindowShared> window;
    int member = 0;  // local rank
    std::vector<RemoteAccess> accesses;
    int watch = -1;  // the guard, or -1
    std::uintptr_t guard_lo = 0, guard_hi = 0;
    bool reads_allowed = true;
    bool reported = false;
    // The member's MPI_Win_fence calls so far: an operation of an earlier
    // fence epoch comes after the member left that epoch (it entered the
    // fence that ends it, and returns only once the operation is complete).
    std::uint64_t fences = 0;
  };
  using Key = std::pair<int, int>;  // window id, member

  Target& target(const std::shared_ptr<WindowShared>& window, int member);
  void regard(Target& t);
  void forget_if(Key key, const std::function<bool(const RemoteAccess&)>& done);
  void on_access(const sim::memory::MemoryWatch::GuardAccess& access);

  MpiModel* model_ = nullptr;
  std::map<Key, Target> targets_;
  std::unordered_map<int, Key> by_watch_;
};

}  // namespace progsim::mpi::rma
