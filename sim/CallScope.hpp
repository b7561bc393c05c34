// Entering and leaving the MPI library from a rank.
//
// Every MPI binding opens a CallScope first. On entry it accounts user time
// (user-time=measured) and charges the per-call cost; on exit it puts the
// rank back in user code.
#pragma once

#include "sim/Rank.hpp"
#include "sim/RuntimeParameters.hpp"

namespace progsim::sim {

// What an MPI procedure does with state other ranks change (causality,
// docs/design/time.md). Every kind may leave its own costs deferred (the
// rank's debt, RankClock); they differ on entry:
// - LocalQuery (MPI_Wtime, MPI_Comm_rank, MPI_Get_version...): touches
//   nothing another rank changes; may even run inline (CallScope.cpp).
// - Interacting (the default: tests, probes, synchronization, communicator
//   management...): may read what other ranks change, or change what they
//   read by other means than the stamped ones, so it first executes the
//   debt and then its own costs at once: it sees and acts on the world as of
//   the rank's own clock.
// - Stamped (sends, receives, waits, collectives): everything it does that
//   other ranks can observe is stamped with the rank's clock (a packet
//   leaves at it, a posted receive becomes visible at it), so its costs stay
//   deferred: no SimGrid execution per message. Where it looks at arrivals
//   the debt is executed if it exceeds the observation lag
//   (RankClock::observe).
enum class CallKind { LocalQuery, Interacting, Stamped };

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
  CallKind kind_;
  bool inline_ = false;
  int saved_errno_ = 0;
  bool deferral_was_allowed_ = true;
};

// A library interposed between the program and the MPI procedures (the
// trace recorder's MPI_ wrappers) tells where the program called it, so
// that a blocked call names the program's line without unwinding. While
// memory is watched it also holds the rank's stack pages open from there
// (MemoryWatch::enter_mpi), as the MPI call does: a watched local variable
// of the program (MPICH's rma/manyrma3 makes `int winbuf` its window)
// shares its page with the wrapper's frames, and every access of the
// wrapper and of the binding before the call's own scope trapped (300
// faults per MPI_Accumulate, 81 s instead of 0.4 s).
class InterposedCall {
public:
  explicit InterposedCall(const void* program_caller);
  ~InterposedCall();
  InterposedCall(const InterposedCall&) = delete;
  InterposedCall& operator=(const InterposedCall&) = delete;

private:
  Rank* rank_;
  const void* previous_ = nullptr;
  bool holds_pages_ = false;
};

// The rank calling now, or nullptr outside any rank.
Rank* calling_rank();

}  // namespace progsim::sim
