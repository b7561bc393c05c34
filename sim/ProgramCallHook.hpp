// One hook on every MPI procedure the program calls directly (issue 19): the
// trace recorder sees through it the calls it has no wrapper for, so that a
// procedure added to the bindings can never be silently left out of a
// trace (the recorder classifies it: traces/UnrecordedCalls.def).
#pragma once

namespace progsim::sim {

class Rank;

// Called as a program's call of `name` enters the library, before it does
// anything: from user code, or from a program callback that an MPI call
// runs (Rank::program_calling; the hook tells them apart by
// Rank::current_call); not for calls MPI makes itself (nested), nor for
// those an interposed library (InterposedCall) already saw. `local_query`: whether the
// call is a CallKind::LocalQuery (its cost may stay deferred), which a
// replay reproduces to take the same time. nullptr: no hook.
using ProgramCallHook = void (*)(Rank& rank, const char* name, bool local_query);
void set_program_call_hook(ProgramCallHook hook);

// Called when MPI call `name` of `rank` is about to return error `error`
// (its class's name, "MPI_ERR_BUFFER") to the program or to a user error
// handler, so that the recorder can mark the call as failed: a replay then
// gives it its cost and not its effect. nullptr: no hook.
using FailedCallHook = void (*)(Rank& rank, const char* name, const char* error);
void set_failed_call_hook(FailedCallHook hook);
void notify_failed_call(Rank& rank, const char* name, const char* error);

}  // namespace progsim::sim
