// Per-message times for the report: when the send started, when the target
// matched it, when the receive completed (MPI-level latency = complete - post).
//
// Memory does not grow with the number of messages: the first `keep`
// messages are kept whole (the report lists them), later ones only until
// they complete, then as their latency in a LatencyDistribution (exact
// quantiles for the first 65,536, a fixed histogram after).
#pragma once

#include "core/Request.hpp"
#include "p2p/LatencyDistribution.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <unordered_map>
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
  // Latencies kept exactly (8 bytes each) before the histogram takes over.
  static constexpr std::size_t kExactLatencies = std::size_t{1} << 16;

  explicit MessageLog(std::size_t keep) : keep_(keep), latencies_(kExactLatencies) {}
  // Records a new message; returns its id (1, 2, ...).
  std::uint64_t add(MessageRecord record);
  void matched(std::uint64_t id, double time);
  // Returns the completed message (nullopt for an unknown id).
  std::optional<MessageRecord> completed(std::uint64_t id, double time);
  std::uint64_t size() const { return count_; }
  // Summary (count, latency median and 99th percentile) and the kept records.
  nlohmann::ordered_json to_json() const;

private:
  std::size_t keep_;
  std::uint64_t count_ = 0;
  std::vector<MessageRecord> kept_;                        // ids 1 .. keep_
  std::unordered_map<std::uint64_t, MessageRecord> open_;  // later ids, until complete (lookups only)
  LatencyDistribution latencies_;                          // of completed messages
  // Nodes of completed messages, reused by the next ones: no allocation per
  // message once as many are in flight as ever were (up to kSpareNodes).
  static constexpr std::size_t kSpareNodes = 1024;
  std::vector<decltype(open_)::node_type> spare_nodes_;
};

}  // namespace progsim::mpi
