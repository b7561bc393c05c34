// The waits of ranks blocked in one-sided synchronization (an access epoch
// waiting for posts, an exposure epoch waiting for completes, remote
// completion of operations, a lock waiting for its grant) and on MPI_Rput &
// co. requests, for DeadlockDiagnosis.
#pragma once

#include "diagnosis/DeadlockDiagnosis.hpp"

namespace progsim::mpi {

class PointToPoint;
namespace rma {
class RmaEngine;
}

class RmaWaits : public WaitForSource {
public:
  RmaWaits(const rma::RmaEngine& rma, const PointToPoint& p2p) : rma_(rma), p2p_(p2p) {}
  void wait_edges(int rank, std::vector<WaitEdge>& edges) const override;
  std::string pending(int rank) const override;

private:
  const rma::RmaEngine& rma_;
  const PointToPoint& p2p_;
};

}  // namespace progsim::mpi
