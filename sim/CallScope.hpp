// Entering and leaving the MPI library from a rank.
//
// Every MPI binding opens a CallScope first. On entry it accounts user time
// (user-time=measured) and charges the per-call cost; on exit it puts the
// rank back in user code.
#pragma once

#include "sim/Rank.hpp"
#include "sim/RuntimeParameters.hpp"

namespace progsim::sim {

// Whether other ranks can observe what an MPI procedure does. An
// interacting procedure (it sends, matches, progresses, synchronizes, or
// reads state that other ranks change) first executes the rank's deferred
// CPU debt and defers none of its own costs: whatever it does happens at the
// rank's own clock (causality). A local query (MPI_Wtime, MPI_Comm_rank,
// MPI_Get_version...) may leave its cost deferred, so polling the clock
// stays cheap.
enum class CallKind { LocalQuery, Interacting };

class CallScope {
public:
  // `name` must be a string literal (kept by pointer). `rank` may be null
  // when MPI is called outside a simulation (then nothing is accounted).
  // `caller`: the return address of the MPI procedure, i.e. where the
  // program called it (the default argument is evaluated in the procedure;
  // a constructor that opens the scope for a procedure passes its own).
  CallScope(Rank* rank, const char* name, CallKind kind, const void* caller = __builtin_return_address(0));
  ~CallScope();
  CallScope(const CallScope&) = delete;
  CallScope& operator=(const CallScope&) = delete;

  Rank* rank() const { return rank_; }

private:
  // Whether this local query can run without giving control to another
  // rank (see CallScope.cpp).
  bool stays_inline(const RuntimeParameters& params) const;

  Rank* rank_;
  bool interacting_;
  bool inline_ = false;
  int saved_errno_ = 0;
  bool deferral_was_allowed_ = true;
};

// A library interposed between the program and the MPI procedures (the
// trace recorder's MPI_ wrappers) tells where the program called it, so
// that a blocked call names the program's line without unwinding.
class InterposedCall {
public:
  explicit InterposedCall(const void* program_caller);
  ~InterposedCall();
  InterposedCall(const InterposedCall&) = delete;
  InterposedCall& operator=(const InterposedCall&) = delete;

private:
  Rank* rank_;
  const void* previous_ = nullptr;
};

// The rank calling now, or nullptr outside any rank.
Rank* calling_rank();

}  // namespace progsim::sim
