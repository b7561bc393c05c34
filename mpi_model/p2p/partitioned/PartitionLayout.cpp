#include "p2p/partitioned/PartitionLayout.hpp"

#include <algorithm>

namespace progsim::mpi {

int PartitionLayout::end_partition(int message) const
{
  return std::min(partitions, (message + 1) * per_message);
}

void PartitionLayout::messages_covering(std::size_t begin, std::size_t end, int& first, int& last) const
{
  first = 0;
  last = -1;
  std::size_t message_bytes = partition_bytes * static_cast<std::size_t>(per_message);
  end = std::min(end, total_bytes());
  if (message_bytes == 0 || begin >= end)
    return;
  first = static_cast<int>(begin / message_bytes);
  last = static_cast<int>((end - 1) / message_bytes);
}

PartitionLayout make_partition_layout(const std::string& aggregation, int partitions, std::size_t partition_bytes)
{
  PartitionLayout layout;
  layout.partitions = partitions;
  layout.partition_bytes = partition_bytes;
  layout.per_message = aggregation == "whole-message" ? std::max(1, partitions) : 1;
  return layout;
}

}  // namespace progsim::mpi
