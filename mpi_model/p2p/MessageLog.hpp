// Per-message times for the report: when the send started, when the target
// matched it, when the receive completed (MPI-level latency = complete - post).
#pragma once

#include "core/Request.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <vector>

namespace progsim::mpi {

struct MessageRecord {
  std::uint64_t id = 0;
  int source = 0;  // world ranks
  int dest = 0;
  int tag = 0;
  std::size_t bytes = 0;
  Protocol protocol = Protocol::None;
  double post_time = 0;
  double match_time = -1;
  double complete_time = -1;  // the receive completed
};

class MessageLog {
public:
  MessageRecord& add(const MessageRecord& record);
  MessageRecord* find(std::uint64_t id);
  std::size_t size() const { return records_.size(); }
  // Summary (count, latency median and 99th percentile) and the first
  // `limit` records.
  nlohmann::ordered_json to_json(std::size_t limit) const;

private:
  std::vector<MessageRecord> records_;  // index = id - 1
};

}  // namespace progsim::mpi
