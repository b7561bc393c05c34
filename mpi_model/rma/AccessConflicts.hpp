// Conflicting RMA accesses (MPI-4.1 §12.7, rule 2: "A location in a window
// must not be accessed as a target of an RMA operation once an update to
// that location has started, until the update becomes visible in the public
// window copy. There is one exception ... two concurrent accumulates with
// the same predefined datatype"). These are the rules "a program with a
// well-defined outcome" obeys: one that breaks them is not erroneous (it
// was in MPI-2), its result is undefined, and no MPI exception may be
// raised. So a conflict is a StandardError of kind UndefinedOutcome (a
// warning, the run stays completed; an error with --strict), not an
// erroneous program. Two operations of different origins on
// overlapping target bytes conflict when they are concurrent, unless both
// only read (gets) or both are accumulates (MPI_Accumulate,
// MPI_Get_accumulate, MPI_Fetch_and_op, MPI_Compare_and_swap) of the same
// predefined type. Two operations of one origin are not reported
// (AccessConflicts.cpp says why). Concurrent are:
//  - fence: the operations of one fence epoch (every operation of epoch k is
//    complete before any member leaves the fence that ends it);
//  - PSCW: the operations of the access epochs that match one MPI_Win_post
//    of the target (they end with its MPI_Win_wait/test; the next exposure
//    epoch starts after). An operation whose matching post has not been
//    made yet when it is issued is not checked (its epoch is unknown then);
//  - passive target: operations made under shared locks (MPI_Win_lock
//    shared, MPI_Win_lock_all) that their origin has not completed at the
//    target yet (MPI_Win_unlock(_all), MPI_Win_flush(_all): the update is
//    then visible). Exclusive locks exclude each other (their operations are
//    not recorded); MPI_Win_flush_local only completes at the origin.
//    Fetching accumulates (MPI_Get_accumulate, MPI_Fetch_and_op,
//    MPI_Compare_and_swap) are checked but not recorded: programs order
//    later accesses on their results.
//
// Checked when the origin issues the operation (the target bytes are known
// then), against the recorded accesses to the same target. Local loads and
// stores against remote accesses: LocalAccessConflicts. Not checked:
// windows that overlap in
// memory, operations of different epoch kinds (the sync checks forbid
// mixing them at one process). A target type with more than kMaxPieces
// contiguous pieces is not checked; an epoch with more than kMaxAccesses
// accesses to one target stops being checked (the cost stays bounded).
#pragma once

#include "diagnosis/StandardErrors.hpp"
#include "rma/Operation.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace progsim::mpi {
class CallContext;
}

namespace progsim::mpi::rma {

struct Window;
struct WindowShared;

// One operation's access to target memory: bytes [lo, hi) (addresses).
struct TargetAccess {
  std::uintptr_t lo = 0, hi = 0;
  int origin = 0;         // world rank
  OpKind kind = OpKind::Put;
  int element_index = 0;  // accumulates: the predefined type
  const char* call = "";
  std::uintptr_t site = 0;  // diagnosis/CallSites.hpp
};

// The accesses to one target member in the current fence epoch.
class EpochAccesses {
public:
  static constexpr std::size_t kMaxAccesses = 1024;
  static constexpr std::int64_t kMaxPieces = 64;

  // Starts epoch `epoch` if it is a later one than the accesses kept;
  // false when `epoch` is an earlier one.
  bool enter(std::uint64_t epoch);
  // Forgets the accesses of world rank `origin` (completed at the target).
  void forget(int origin);
  // An earlier access of the epoch that conflicts with `a`, or nullptr.
  const TargetAccess* conflict(const TargetAccess& a) const;
  void add(const TargetAccess& a);
  // The accesses starting in [from, from + bytes) now start at `to` plus
  // their offset in it (attached memory a replay moved, AttachedRegions).
  void move(std::uintptr_t from, std::uintptr_t bytes, std::uintptr_t to);
  bool full() const { return accesses_.size() >= kMaxAccesses; }
  // Reported once per epoch and target (passive target: once per target).
  bool reported = false;

private:
  std::uint64_t epoch_ = 0;
  std::multimap<std::uintptr_t, TargetAccess> accesses_;  // by lo
  std::uintptr_t longest_ = 0;
};

// Checks operation `op` of the calling member of `w` (target memory
// resolved) and records its accesses; a conflict is an undefined outcome
// (StandardError::Kind::UndefinedOutcome). One
// per kind of epoch the operation belongs to.
void check_fence_conflicts(const CallContext& caller, Window& w, const Operation& op);
void check_pscw_conflicts(const CallContext& caller, Window& w, const Operation& op);
void check_lock_conflicts(const CallContext& caller, Window& w, const Operation& op);
// The number of the target's MPI_Win_post that the calling member's current
// access epoch to `target` (local rank) matches, or 0 when the target has
// not posted it yet.
std::uint64_t matching_post(Window& w, int target);
// The contiguous target byte ranges (addresses) of `op`; empty when there
// are more than EpochAccesses::kMaxPieces.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> target_pieces(const Operation& op);
// A finding of §12.7 (its section): an undefined outcome, not an error.
StandardError undefined_outcome(std::string rule, std::string requirement);
// "bytes [8, 12) of rank 0's window memory"
std::string describe_target_bytes(const WindowShared& s, int target, std::uintptr_t lo, std::uintptr_t hi);
// MPI_Win_post of the calling member of `w` naming `origins` (world ranks).
void note_post(Window& w, const std::vector<int>& origins);
// Memory of member `target` (local rank) moved from [from, from + bytes) to
// `to`: its accesses kept in every kind of epoch move with it.
void move_accesses(WindowShared& s, int target, std::uintptr_t from, std::uintptr_t bytes, std::uintptr_t to);
// The calling member's operations to `targets` (local ranks) are complete
// at the target (unlock, flush).
void forget_lock_accesses(Window& w, int origin_world, const std::vector<int>& targets);

}  // namespace progsim::mpi::rma
