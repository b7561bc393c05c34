// The waits of ranks blocked on point-to-point requests (and on the
// point-to-point messages internal to collectives), for DeadlockDiagnosis.
#pragma once

#include "diagnosis/DeadlockDiagnosis.hpp"

namespace progsim::mpi {

class PointToPoint;
class StandardErrors;
struct Request;

class PointToPointWaits : public WaitForSource {
public:
  PointToPointWaits(const PointToPoint& p2p, const ProgressEngine& progress, const StandardErrors& errors)
      : p2p_(p2p), progress_(progress), errors_(errors)
  {
  }
  void wait_edges(int rank, std::vector<WaitEdge>& edges) const override;
  std::string pending(int rank) const override;

private:
  void edges_of(const Request& r, std::vector<WaitEdge>& edges) const;
  // The chunk of `owner` queued for message `message_id`, described ("" if none).
  std::string queued_chunk(int owner, std::uint64_t message_id) const;

  const PointToPoint& p2p_;
  const ProgressEngine& progress_;
  const StandardErrors& errors_;
};

}  // namespace progsim::mpi
