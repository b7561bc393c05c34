#include "diagnosis/SessionFinalizeWaits.hpp"

#include "sessions/FinalizeSynchronization.hpp"

namespace progsim::mpi {

void SessionFinalizeWaits::wait_edges(int rank, std::vector<WaitEdge>& edges) const
{
  for (const sessions::MissingPartner& m : sessions::missing_partners(rank)) {
    WaitEdge e;
    e.from = rank;
    e.to = m.world_rank;
    e.kind = WaitKind::CollectivePartner;
    e.waits_for = "rank " + std::to_string(m.world_rank) + " to enter MPI_Session_finalize of its session of " +
                  m.communicator;
    e.freedom = "MPI_Session_finalize may or may not synchronize on the communicators derived from the session and "
                "not freed (MPI-4.1 §11.3.1): this implementation waits for every member "
                "(--cfg session-finalize-sync=collective; local never waits)";
    edges.push_back(e);
  }
}

}  // namespace progsim::mpi
