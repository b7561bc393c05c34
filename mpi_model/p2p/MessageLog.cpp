#include "p2p/MessageLog.hpp"

#include <algorithm>
#include <cmath>

namespace progsim::mpi {

std::uint64_t MessageLog::add(MessageRecord record)
{
  record.id = ++count_;
  if (kept_.size() < keep_)
    kept_.push_back(record);
  else
    open_.emplace(record.id, record);
  return record.id;
}

void MessageLog::matched(std::uint64_t id, double time)
{
  if (id >= 1 && id <= kept_.size())
    kept_[id - 1].match_time = time;
  else if (auto it = open_.find(id); it != open_.end())
    it->second.match_time = time;
}

std::optional<MessageRecord> MessageLog::completed(std::uint64_t id, double time)
{
  if (id >= 1 && id <= kept_.size()) {
    MessageRecord& r = kept_[id - 1];
    if (r.complete_time < 0)
      latencies_.push_back(time - r.post_time);
    r.complete_time = time;
    return r;
  }
  auto it = open_.find(id);
  if (it == open_.end())
    return std::nullopt;
  MessageRecord r = it->second;
  open_.erase(it);
  r.complete_time = time;
  latencies_.push_back(time - r.post_time);
  return r;
}

nlohmann::ordered_json MessageLog::to_json() const
{
  std::vector<double> latencies = latencies_;
  std::sort(latencies.begin(), latencies.end());
  auto percentile = [&](double q) -> nlohmann::ordered_json {
    if (latencies.empty())
      return nullptr;
    auto index = static_cast<size_t>(std::ceil(q * static_cast<double>(latencies.size()))) - 1;
    return latencies[std::min(index, latencies.size() - 1)];
  };
  nlohmann::ordered_json j;
  j["count"] = count_;
  j["completed"] = latencies.size();
  j["latency_median"] = percentile(0.5);
  j["latency_p99"] = percentile(0.99);
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const MessageRecord& r : kept_)
    list.push_back({{"id", r.id},
                    {"source", r.source},
                    {"dest", r.dest},
                    {"tag", r.tag},
                    {"bytes", r.bytes},
                    {"protocol", to_string(r.protocol)},
                    {"post_time", r.post_time},
                    {"match_time", r.match_time >= 0 ? nlohmann::ordered_json(r.match_time) : nullptr},
                    {"complete_time", r.complete_time >= 0 ? nlohmann::ordered_json(r.complete_time) : nullptr}});
  j["records"] = list;
  j["records_truncated"] = count_ > kept_.size();
  return j;
}

}  // namespace progsim::mpi
