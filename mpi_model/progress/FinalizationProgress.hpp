// The progress rule of the finalizations (MPI-4.1 §2.9 / MPI-5.0 §3.9): an
// MPI finalization procedure (MPI_Finalize, MPI_Session_finalize) "must
// guarantee that all decoupled MPI activities [...] in the calling MPI
// process will be executed before this MPI finalization is finished",
// "independently of whether a decoupled MPI activity belongs to a specific
// session or to the World Model".
#pragma once

namespace progsim::mpi {

// Whether the finalization also waits until no send to the rank can still be
// cancelled (MPI-4.1 §11.2.2's advice for MPI_FINALIZE, p2p/SendCancel.cpp).
enum class PendingCancellations { Ignore, WaitFor };

// Blocks rank `rank` inside `call`, progressing (it polls at least once, as
// every progressing call does), until none of its decoupled activities
// (buffered sends, freed requests, queued progress chunks) is left, whichever
// session or World Model they belong to.
void run_remaining_activities(int rank, const char* call, PendingCancellations cancellations);

}  // namespace progsim::mpi
