#include "p2p/MessageLog.hpp"


namespace progsim::mpi {

std::uint64_t MessageLog::add(MessageRecord record)
{
  record.id = ++count_;
  if (kept_.size() < keep_)
    kept_.push_back(record);
  else if (spare_nodes_.empty())
    open_.emplace(record.id, record);
  else {
    auto node = std::move(spare_nodes_.back());
    spare_nodes_.pop_back();
    node.key() = record.id;
    node.mapped() = record;
    open_.insert(std::move(node));
  }
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
      latencies_.add(time - r.post_time);
    r.complete_time = time;
    return r;
  }
  auto it = open_.find(id);
  if (it == open_.end())
    return std::nullopt;
  MessageRecord r = it->second;
  if (spare_nodes_.size() < kSpareNodes)
    spare_nodes_.push_back(open_.extract(it));
  else
    open_.erase(it);
  r.complete_time = time;
  latencies_.add(time - r.post_time);
  return r;
}

nlohmann::ordered_json MessageLog::to_json() const
{
  auto quantile = [&](double q) -> nlohmann::ordered_json {
    if (latencies_.count() == 0)
      return nullptr;
    return latencies_.quantile(q);
  };
  nlohmann::ordered_json j;
  j["count"] = count_;
  j["completed"] = latencies_.count();
  j["latency_median"] = quantile(0.5);
  j["latency_p99"] = quantile(0.99);
  // false: the quantiles come from the histogram (within 0.2%).
  j["latency_exact"] = latencies_.exact();
  // The distribution's figure (compare --figures): the latency at each
  // percentile, [fraction of messages, seconds].
  nlohmann::ordered_json cdf = nlohmann::ordered_json::array();
  if (latencies_.count() > 0) {
    std::vector<double> fractions;
    for (int percent = 0; percent <= 100; ++percent)
      fractions.push_back(percent / 100.0);
    std::vector<double> latency = latencies_.quantiles(fractions);
    for (std::size_t k = 0; k < fractions.size(); ++k)
      cdf.push_back({fractions[k], latency[k]});
  }
  j["latency_cdf"] = cdf;
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
