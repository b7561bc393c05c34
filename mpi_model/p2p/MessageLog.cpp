#include "p2p/MessageLog.hpp"

#include <algorithm>
#include <cmath>

namespace progsim::mpi {

MessageRecord& MessageLog::add(const MessageRecord& record)
{
  records_.push_back(record);
  return records_.back();
}

MessageRecord* MessageLog::find(std::uint64_t id)
{
  return id >= 1 && id <= records_.size() ? &records_[id - 1] : nullptr;
}

nlohmann::ordered_json MessageLog::to_json(std::size_t limit) const
{
  std::vector<double> latencies;
  for (const auto& r : records_)
    if (r.complete_time >= 0)
      latencies.push_back(r.complete_time - r.post_time);
  std::sort(latencies.begin(), latencies.end());
  auto percentile = [&](double q) -> nlohmann::ordered_json {
    if (latencies.empty())
      return nullptr;
    auto index = static_cast<size_t>(std::ceil(q * static_cast<double>(latencies.size()))) - 1;
    return latencies[std::min(index, latencies.size() - 1)];
  };
  nlohmann::ordered_json j;
  j["count"] = records_.size();
  j["completed"] = latencies.size();
  j["latency_median"] = percentile(0.5);
  j["latency_p99"] = percentile(0.99);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (size_t i = 0; i < records_.size() && i < limit; ++i) {
    const MessageRecord& r = records_[i];
    list.push_back({{"id", r.id},
                    {"source", r.source},
                    {"dest", r.dest},
                    {"tag", r.tag},
                    {"bytes", r.bytes},
                    {"protocol", to_string(r.protocol)},
                    {"post_time", r.post_time},
                    {"match_time", r.match_time >= 0 ? nlohmann::ordered_json(r.match_time) : nullptr},
                    {"complete_time", r.complete_time >= 0 ? nlohmann::ordered_json(r.complete_time) : nullptr}});
  }
  j["records"] = list;
  j["records_truncated"] = records_.size() > limit;
  return j;
}

}  // namespace progsim::mpi
