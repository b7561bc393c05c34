// The receive side of partitioned communication (MPI-4.1 §4.2):
// MPI_Precv_init posts the receive of the sender's matching handshake (so
// that sends and receives match in the order of their initialization
// calls, §4.2.2); once matched and started, each epoch posts one internal
// receive per message of the sender's layout. A receive partition has
// arrived (MPI_Parrived) when every message carrying part of it has; the
// partition counts of the two sides may differ (§4.2.2 only requires the
// same total size).
#pragma once

#include "core/Request.hpp"
#include "p2p/partitioned/InternalMessages.hpp"
#include "p2p/partitioned/PartitionLayout.hpp"

#include <memory>
#include <vector>

namespace progsim::mpi {

class PointToPoint;

class PartitionedRecv final : public PartitionedOperation, public std::enable_shared_from_this<PartitionedRecv> {
public:
  // `user`: the request MPI_Precv_init returns, its buffer and count the
  // whole receive (partitions * partition_count items).
  PartitionedRecv(PointToPoint& p2p, const RequestPtr& user, int partitions, std::size_t partition_bytes);

  // Posts the handshake receive. Returns an MPI error class.
  int init();
  int start() override;
  std::string describe() const override;
  std::vector<RequestPtr> in_flight() const override;
  std::string waits_for_peer() const override;
  std::string waits_for_owner() const override;

  int partitions() const override { return partitions_; }
  bool sends() const override { return false; }
  // Whether receive partition `partition` has arrived in the current epoch.
  bool arrived(int partition) const;

private:
  void on_handshake();
  void post_receives();
  void on_message(int message, const std::vector<std::byte>& data);

  PointToPoint& p2p_;
  std::weak_ptr<Request> user_;
  Request base_;
  int partitions_;
  std::size_t partition_bytes_;
  std::vector<std::byte> handshake_bytes_;
  RequestPtr handshake_;
  std::uintptr_t call_site_ = 0;  // of its MPI_Precv_init (the user request may get it later)
  bool matched_ = false;
  bool started_ = false;
  PartitionLayout sender_;  // the sender's layout (valid once matched)
  int link_context_ = 0;
  std::vector<bool> message_arrived_;
  std::vector<RequestPtr> messages_;
  int pending_ = 0;
};

}  // namespace progsim::mpi
