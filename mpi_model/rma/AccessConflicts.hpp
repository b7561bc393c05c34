// Conflicting RMA accesses in one fence epoch (MPI-4.1 §12.7, rule 2: "A
// location in a window must not be accessed as a target of an RMA
// operation once an update to that location has started, until the update
// becomes visible in the public window copy. There is one exception ...
// two concurrent accumulates with the same predefined datatype"). Within a
// fence epoch the operations of different origins are concurrent: two of
// them on overlapping target bytes conflict unless both only read (gets) or
// both are accumulates (MPI_Accumulate, MPI_Get_accumulate,
// MPI_Fetch_and_op, MPI_Compare_and_swap) of the same predefined type. Two
// operations of one origin are not reported (AccessConflicts.cpp says why).
//
// Checked when the origin issues the operation (the target bytes are known
// then), against the accesses of the same epoch to the same target, kept
// per target member of the window and cleared when an operation of a later
// fence epoch comes (every operation of epoch k is complete before any
// member leaves the fence that ends it). Not checked: passive-target and
// PSCW epochs, local loads and stores against remote accesses, windows that
// overlap in memory. A target type with more than kMaxPieces contiguous
// pieces is not checked; an epoch with more than kMaxAccesses accesses to
// one target stops being checked (the cost stays bounded).
#pragma once

#include "rma/Operation.hpp"

#include <cstdint>
#include <map>

namespace progsim::mpi {
class CallContext;
}

namespace progsim::mpi::rma {

struct Window;

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

  // Starts epoch `epoch` if it is a later one than the accesses kept.
  void enter(std::uint64_t epoch);
  // An earlier access of the epoch that conflicts with `a`, or nullptr.
  const TargetAccess* conflict(const TargetAccess& a) const;
  void add(const TargetAccess& a);
  bool full() const { return accesses_.size() >= kMaxAccesses; }
  // Reported once per epoch and target.
  bool reported = false;

private:
  std::uint64_t epoch_ = 0;
  std::multimap<std::uintptr_t, TargetAccess> accesses_;  // by lo
  std::uintptr_t longest_ = 0;
};

// Checks operation `op` of the calling member of `w` (in a fence epoch,
// target memory resolved) and records its accesses; a conflict is a
// StandardError.
void check_fence_conflicts(const CallContext& caller, Window& w, const Operation& op);

}  // namespace progsim::mpi::rma
