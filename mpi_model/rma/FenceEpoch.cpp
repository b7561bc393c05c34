// MPI_Win_fence (MPI-4.1 §12.5.1): active-target synchronization that is
// collective over the window's group.

#include "rma/Epochs.hpp"

#include "MpiModel.hpp"
#include "coll/Collectives.hpp"
#include "rma/RmaEngine.hpp"

namespace progsim::mpi::rma {

int fence(const CallContext& caller, Window& w, int assert)
{
  ++w.fences;  // the epoch ends here: later operations belong to the next one
  // Its operations are complete in this member's memory when the fence
  // returns (MPI-4.1 §12.7), and it runs no code of the program meanwhile.
  caller.model().rma().local_accesses().end_epoch(w, EpochKind::Fence);
  w.fence_operations = false;
  complete_operations(caller, w, all_targets(w));
  // Every member's operations are complete at their targets when it enters
  // the barrier, so every target's memory is final when the barrier ends.
  const Communicator* ic = caller.model().communicators().find(w.comm, caller.world());
  if (int err = coll::barrier({caller, *ic, coll::kBarrierTag}))
    return err;
  w.fence_epoch = !(assert & MPI_MODE_NOSUCCEED);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::rma
