// The synchronization MPI_Session_finalize may make (MPI-4.1 §11.3.1): it
// "may be synchronizing on any or all of the groups associated with
// communicators [...] derived from the session and not disconnected, freed
// [...] before the call", and "behaves as if all such synchronizations occur
// concurrently". An implementation freedom (--cfg session-finalize-sync):
//   local       never synchronizes (default; MPICH 4.0 does not);
//   collective  waits, for every communicator the process derived from the
//               session and has not freed, until every member of it has
//               entered MPI_Session_finalize of the session it derived its
//               own handle from (or has freed its handle): all of them at
//               once, so communicators over overlapping groups never wait
//               for each other in turn.
// A portable program frees its communicators before finalizing, or finalizes
// sessions in the same order everywhere; the example in examples/ shows what
// deadlocks otherwise. The wait costs no simulated time of its own: the last
// member to arrive releases the others at once.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace progsim::mpi {
class CallContext;
}

namespace progsim::mpi::sessions {

// Whether MPI_Session_finalize synchronizes (session-finalize-sync=collective).
bool finalize_synchronizes();

// Blocks the calling process in MPI_Session_finalize(session) until every
// member of its communicators derived from the session arrived (see above).
void synchronize_finalize(const CallContext& call, MPI_Session session);

// A rank blocked in that synchronization: the members it still waits for,
// with the communicator ("the communicator 'ring' (context 8)") of each.
struct MissingPartner {
  int world_rank;
  std::string communicator;
};
std::vector<MissingPartner> missing_partners(int rank);

}  // namespace progsim::mpi::sessions
