// The send side of partitioned communication (MPI-4.1 §4.2): MPI_Psend_init
// sends the matching handshake; each epoch (MPI_Start) sends the partitions
// as internal messages (PartitionLayout), a message as soon as MPI_Pready
// marked all its partitions, eager or rendezvous by its size. The request
// completes when every message of the epoch has completed at the origin.
#pragma once

#include "core/Request.hpp"
#include "p2p/partitioned/InternalMessages.hpp"
#include "p2p/partitioned/PartitionLayout.hpp"

#include <memory>
#include <vector>

namespace progsim::mpi {

class PointToPoint;

class PartitionedSend final : public PartitionedOperation, public std::enable_shared_from_this<PartitionedSend> {
public:
  // `user`: the request MPI_Psend_init returns, its buffer and count the
  // whole send (partitions * partition_count items).
  PartitionedSend(PointToPoint& p2p, const RequestPtr& user, int partitions, std::int64_t partition_count,
                  PartitionLayout layout);

  // Sends the handshake (matched in the order of the initialization calls,
  // MPI-4.1 §4.2.2). Returns an MPI error class.
  int init();
  int start() override;
  std::string describe() const override;
  std::vector<RequestPtr> in_flight() const override;
  std::string waits_for_peer() const override;
  std::string waits_for_owner() const override;

  int partitions() const override { return partitions_; }
  bool sends() const override { return true; }
  bool ready(int partition) const { return ready_[static_cast<size_t>(partition)]; }
  // MPI_Pready of one partition (checked by the binding: active, in range,
  // not yet ready in this epoch).
  void pready(int partition);

private:
  void send_message(int message);
  void message_done();

  PointToPoint& p2p_;
  std::weak_ptr<Request> user_;
  Request base_;  // the user's request as initialized (peer, comm, buffer)
  int partitions_;
  std::int64_t partition_count_;
  PartitionLayout layout_;
  int link_context_;
  std::vector<std::byte> handshake_bytes_;
  RequestPtr handshake_;
  std::vector<bool> ready_;
  std::vector<int> ready_in_message_;
  std::vector<RequestPtr> messages_;  // this epoch's, in the order sent
  int pending_ = 0;                   // messages of this epoch not complete
};

}  // namespace progsim::mpi
