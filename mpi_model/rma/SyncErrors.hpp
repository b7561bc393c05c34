// The program's errors in one-sided synchronization (MPI-4.1 §12.5) as
// StandardErrors: an RMA operation outside any access epoch to its target,
// a synchronization call without its epoch open, an epoch opened while
// another of a different kind is open on the window ("distinct access
// epochs for win at the same MPI process must be disjoint"). The binding
// still raises MPI_ERR_RMA_SYNC on the window (its error handler decides
// whether the run goes on); the StandardError makes a run that goes on
// `erroneous` and names the rule and the call's file:line.
#pragma once

#include <string>

namespace progsim::mpi {
class CallContext;
}

namespace progsim::mpi::rma {

struct Window;

// Records the error of the calling rank's current call on `w`; returns
// MPI_ERR_RMA_SYNC.
int report_sync_error(const CallContext& caller, const Window& w, const std::string& what);

}  // namespace progsim::mpi::rma
