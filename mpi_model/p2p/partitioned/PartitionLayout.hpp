// How the partitions of a partitioned send travel (MPI-4.1 §4.2 leaves it to
// the implementation): as messages, each a run of consecutive send
// partitions. --cfg part-aggregation chooses the run length:
//   per-partition: one message per partition, sent when MPI_Pready marks it;
//   whole-message: one message, sent when every partition is ready (MPICH
//     4.0's active-message implementation).
// Both sides compute the same layout: the sender from its arguments, the
// receiver from the sender's matching handshake.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace progsim::mpi {

struct PartitionLayout {
  int partitions = 0;              // send partitions
  std::size_t partition_bytes = 0;  // packed bytes of one send partition
  int per_message = 1;             // consecutive partitions in one message

  int messages() const { return partitions <= 0 ? 0 : (partitions + per_message - 1) / per_message; }
  int message_of(int partition) const { return partition / per_message; }
  int first_partition(int message) const { return message * per_message; }
  int end_partition(int message) const;  // one past its last partition
  std::size_t total_bytes() const { return partition_bytes * static_cast<std::size_t>(partitions); }
  std::size_t begin_byte(int message) const { return partition_bytes * static_cast<std::size_t>(first_partition(message)); }
  std::size_t end_byte(int message) const { return partition_bytes * static_cast<std::size_t>(end_partition(message)); }
  // The messages carrying packed bytes [begin, end) of the whole send;
  // first > last when none does.
  void messages_covering(std::size_t begin, std::size_t end, int& first, int& last) const;
};

// The layout of a send of `partitions` partitions of `partition_bytes` each
// under an aggregation policy (a --cfg part-aggregation value).
PartitionLayout make_partition_layout(const std::string& aggregation, int partitions, std::size_t partition_bytes);

}  // namespace progsim::mpi
