// The waits of ranks blocked in a synchronizing MPI_Session_finalize
// (sessions/FinalizeSynchronization.hpp), for DeadlockDiagnosis: each is an
// implementation freedom (MPI-4.1 §11.3.1: it "may be synchronizing").
#pragma once

#include "diagnosis/DeadlockDiagnosis.hpp"

namespace progsim::mpi {

class SessionFinalizeWaits : public WaitForSource {
public:
  void wait_edges(int rank, std::vector<WaitEdge>& edges) const override;
  std::string pending(int) const override { return ""; }
};

}  // namespace progsim::mpi
