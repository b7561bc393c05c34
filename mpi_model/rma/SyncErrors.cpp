#include "rma/SyncErrors.hpp"

#include "core/CallContext.hpp"
#include "diagnosis/CallSites.hpp"
#include "rma/Window.hpp"

#include <mpi.h>

namespace progsim::mpi::rma {

int report_sync_error(const CallContext& caller, const Window& w, const std::string& what)
{
  report_call_error(caller, "RMA synchronization error", "MPI-4.1 §12.5",
                    "RMA operations are issued inside an access epoch to their target, a synchronization call "
                    "closes an epoch that is open, and distinct access epochs on one window do not overlap",
                    std::string(caller.call()) + " on " + w.shared->name() + " at rank " +
                        std::to_string(caller.world()) + ": " + what);
  return MPI_ERR_RMA_SYNC;
}

}  // namespace progsim::mpi::rma
