#include "sim/timeline/TimelineSummary.hpp"

#include "sim/timeline/Timeline.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <vector>

namespace progsim::sim {

namespace {

constexpr std::array<const char*, 5> kStates = {"user", "mpi", "blocked", "sleeping", "polling"};
constexpr int kShareSteps = 15;  // a state's share of a bucket is 0..15: one hex digit
using Shares = std::array<double, kStates.size()>;

int state_index(const std::string& kind)
{
  for (std::size_t s = 0; s < kStates.size(); ++s)
    if (kind == kStates[s])
      return static_cast<int>(s);
  return -1;
}

// Picoseconds are below anything the model resolves, and keep the file short.
double rounded(double seconds)
{
  return std::round(seconds * 1e12) / 1e12;
}

// Fixed-width tokens, a repeated one written once with "*N;" after it: the
// levels are mostly long runs of one state (a sleep, a wait).
class RunLengthText {
public:
  void add(const std::string& token)
  {
    if (count_ > 0 && token == last_) {
      ++count_;
      return;
    }
    flush();
    last_ = token;
    count_ = 1;
  }
  std::string finish()
  {
    flush();
    return std::move(text_);
  }
  long long tokens() const { return tokens_ + (count_ > 0 ? 1 : 0); }

private:
  void flush()
  {
    if (count_ == 0)
      return;
    text_ += last_;
    if (count_ > 1)
      text_ += "*" + std::to_string(count_) + ";";
    ++tokens_;
    count_ = 0;
  }
  std::string text_, last_;
  long long count_ = 0, tokens_ = 0;
};

class Summarizer {
public:
  Summarizer(const Timeline& timeline, const TimelineSummaryLimits& limits)
      : t_(timeline), limits_(limits), end_(timeline.end() > 0 ? timeline.end() : 1e-9)
  {
    int nranks = std::max(timeline.nranks(), 1);
    ranks_per_lane_ = (nranks + limits.max_lanes - 1) / limits.max_lanes;
    lanes_ = (nranks + ranks_per_lane_ - 1) / ranks_per_lane_;
    // Intervals come sorted by rank, then time (Timeline::stop).
    rank_begin_.assign(static_cast<std::size_t>(nranks) + 1, 0);
    for (const TimelineInterval& i : t_.intervals())
      ++rank_begin_[static_cast<std::size_t>(i.rank) + 1];
    for (std::size_t r = 1; r < rank_begin_.size(); ++r)
      rank_begin_[r] += rank_begin_[r - 1];
  }

  nlohmann::ordered_json levels() const
  {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    long long spent = 0;
    long long buckets = limits_.coarsest_buckets;
    for (int level = 0; level < limits_.max_levels; ++level, buckets *= limits_.level_factor) {
      long long tokens = 0;
      nlohmann::ordered_json lanes = nlohmann::ordered_json::array();
      for (int lane = 0; lane < lanes_; ++lane)
        lanes.push_back(lane_shares(lane, buckets, tokens));
      std::string messages = message_density(buckets, tokens);
      // The coarsest level always; finer ones while they fit.
      if (level > 0 && spent + tokens > limits_.level_budget)
        break;
      spent += tokens;
      out.push_back({{"buckets", buckets}, {"lanes", lanes}, {"messages", messages}});
    }
    return out;
  }

  // Tiles quiet enough to keep their events exactly, quietest first, within
  // the budget; sets exact_ (prefix sums) and returns them as ranges. A
  // tile's quietness counts the events in view there (a long sleep counts in
  // every tile it spans); its cost, the events that begin there (each is
  // written once), so that a long quiet part does not use up the budget.
  nlohmann::ordered_json exact_tiles()
  {
    std::vector<long long> in_view(static_cast<std::size_t>(limits_.tiles), 0), cost = in_view;
    auto count = [&](int first, int last) {
      for (int k = first; k <= last; ++k)
        ++in_view[static_cast<std::size_t>(k)];
      ++cost[static_cast<std::size_t>(first)];
    };
    for (const TimelineInterval& i : t_.intervals())
      count(tile_of(i.start), tile_of(i.end));
    for (const TimelineChunk& c : t_.chunks())
      count(tile_of(c.time), tile_of(c.time));
    for (const TimelineMessage& m : t_.messages()) {
      count(tile_of(m.post), tile_of(m.post));
      count(tile_of(m.complete), tile_of(m.complete));
    }
    std::vector<int> order(static_cast<std::size_t>(limits_.tiles));
    for (int k = 0; k < limits_.tiles; ++k)
      order[static_cast<std::size_t>(k)] = k;
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
      return in_view[static_cast<std::size_t>(a)] < in_view[static_cast<std::size_t>(b)];
    });
    std::vector<char> exact(static_cast<std::size_t>(limits_.tiles), 0);
    long long kept = 0;
    for (int k : order) {
      if (in_view[static_cast<std::size_t>(k)] > limits_.exact_per_tile ||
          kept + cost[static_cast<std::size_t>(k)] > limits_.exact_budget)
        break;
      kept += cost[static_cast<std::size_t>(k)];
      exact[static_cast<std::size_t>(k)] = 1;
    }
    exact_before_.assign(static_cast<std::size_t>(limits_.tiles) + 1, 0);
    nlohmann::ordered_json ranges = nlohmann::ordered_json::array();
    for (int k = 0; k < limits_.tiles; ++k) {
      exact_before_[static_cast<std::size_t>(k) + 1] = exact_before_[static_cast<std::size_t>(k)] + exact[static_cast<std::size_t>(k)];
      if (!exact[static_cast<std::size_t>(k)])
        continue;
      if (!ranges.empty() && ranges.back()[1].get<int>() == k - 1)
        ranges.back()[1] = k;
      else
        ranges.push_back({k, k});
    }
    return ranges;
  }

  // The events of the exact tiles (exact_tiles() first).
  void exact_events(nlohmann::ordered_json& out)
  {
    nlohmann::ordered_json intervals = nlohmann::ordered_json::array();
    for (const TimelineInterval& i : t_.intervals()) {
      int s = state_index(i.kind);
      if (s >= 0 && any_exact(tile_of(i.start), tile_of(i.end)))
        intervals.push_back({i.rank, s, rounded(i.start), rounded(i.end), name(i.name), i.calls});
    }
    nlohmann::ordered_json chunks = nlohmann::ordered_json::array();
    for (const TimelineChunk& c : t_.chunks())
      if (any_exact(tile_of(c.time), tile_of(c.time)))
        chunks.push_back({c.owner, rounded(c.time), executor(c.executor), name(c.what)});
    nlohmann::ordered_json messages = nlohmann::ordered_json::array();
    for (const TimelineMessage& m : t_.messages())
      if (any_exact(tile_of(m.post), tile_of(m.post)) || any_exact(tile_of(m.complete), tile_of(m.complete)))
        messages.push_back({m.source, m.dest, rounded(m.post), rounded(m.complete), m.bytes, m.tag});
    out["names"] = names_;
    out["executors"] = executors_;
    out["intervals"] = std::move(intervals);
    out["chunks"] = std::move(chunks);
    out["messages"] = std::move(messages);
  }

  nlohmann::ordered_json marks() const
  {
    nlohmann::ordered_json out = nlohmann::ordered_json::array();
    if (t_.outcome() == "deadlock")
      out.push_back({{"kind", "deadlock"}, {"t0", rounded(t_.end())}, {"t1", rounded(t_.end())}});
    if (t_.capped())
      out.push_back({{"kind", "truncated"}, {"t0", rounded(t_.capped_at())}, {"t1", rounded(t_.capped_at())}});
    // The longest waits, one per moment: a wait overlapping a longer one
    // already listed (the other ranks in the same collective) is skipped.
    std::vector<const TimelineInterval*> waits;
    for (const TimelineInterval& i : t_.intervals())
      if (i.kind == "blocked")
        waits.push_back(&i);
    std::sort(waits.begin(), waits.end(), [](const TimelineInterval* a, const TimelineInterval* b) {
      double da = a->end - a->start, db = b->end - b->start;
      return da != db ? da > db : a->start != b->start ? a->start < b->start : a->rank < b->rank;
    });
    std::vector<const TimelineInterval*> listed;
    for (const TimelineInterval* w : waits) {
      if (static_cast<int>(listed.size()) >= limits_.longest_waits)
        break;
      if (std::none_of(listed.begin(), listed.end(),
                       [w](const TimelineInterval* l) { return w->start < l->end && l->start < w->end; }))
        listed.push_back(w);
    }
    for (const TimelineInterval* w : listed)
      out.push_back({{"kind", "wait"}, {"rank", w->rank}, {"call", w->name}, {"t0", rounded(w->start)}, {"t1", rounded(w->end)}});
    return out;
  }

  nlohmann::ordered_json totals() const
  {
    std::vector<Shares> by_rank(static_cast<std::size_t>(t_.nranks()), Shares{});
    for (const TimelineInterval& i : t_.intervals())
      if (int s = state_index(i.kind); s >= 0)
        by_rank[static_cast<std::size_t>(i.rank)][static_cast<std::size_t>(s)] += i.end - i.start;
    nlohmann::ordered_json time = nlohmann::ordered_json::array();
    for (const Shares& shares : by_rank) {
      nlohmann::ordered_json row = nlohmann::ordered_json::array();
      for (double seconds : shares)
        row.push_back(rounded(seconds));
      time.push_back(row);
    }
    std::map<std::string, std::vector<long long>> chunks;
    for (const TimelineChunk& c : t_.chunks()) {
      auto& counts = chunks[c.executor];
      counts.resize(static_cast<std::size_t>(t_.nranks()), 0);
      ++counts[static_cast<std::size_t>(c.owner)];
    }
    nlohmann::ordered_json by_executor = nlohmann::ordered_json::object();
    for (const auto& [label, counts] : chunks)
      by_executor[label] = counts;
    return {{"time_by_state", time}, {"chunks_by_executor", by_executor},
            {"messages", t_.messages().size()}, {"intervals", t_.intervals().size()}};
  }

  int lanes() const { return lanes_; }
  int ranks_per_lane() const { return ranks_per_lane_; }

private:
  int tile_of(double time) const
  {
    int k = static_cast<int>(std::floor(time / end_ * limits_.tiles));
    return std::clamp(k, 0, limits_.tiles - 1);
  }
  bool any_exact(int first, int last) const
  {
    return exact_before_[static_cast<std::size_t>(last) + 1] > exact_before_[static_cast<std::size_t>(first)];
  }
  int name(const std::string& text) { return intern(names_, name_index_, text); }
  int executor(const std::string& text) { return intern(executors_, executor_index_, text); }
  static int intern(nlohmann::ordered_json& list, std::map<std::string, int>& index, const std::string& text)
  {
    auto [it, added] = index.emplace(text, static_cast<int>(index.size()));
    if (added)
      list.push_back(text);
    return it->second;
  }

  // One lane at one level: per bucket, each state's share of the lane's
  // rank-time, 0..15, as five hex digits.
  std::string lane_shares(int lane, long long buckets, long long& tokens) const
  {
    std::vector<Shares> share(static_cast<std::size_t>(buckets), Shares{});
    double width = end_ / static_cast<double>(buckets);
    int first = lane * ranks_per_lane_, last = std::min(first + ranks_per_lane_, t_.nranks());
    for (std::size_t k = rank_begin_[static_cast<std::size_t>(first)]; k < rank_begin_[static_cast<std::size_t>(last)];
         ++k) {
      const TimelineInterval& i = t_.intervals()[k];
      int s = state_index(i.kind);
      if (s < 0)
        continue;
      long long b0 = std::clamp(static_cast<long long>(i.start / width), 0LL, buckets - 1);
      long long b1 = std::clamp(static_cast<long long>(i.end / width), 0LL, buckets - 1);
      for (long long b = b0; b <= b1; ++b) {
        double overlap = std::min(i.end, static_cast<double>(b + 1) * width) - std::max(i.start, static_cast<double>(b) * width);
        if (overlap > 0)
          share[static_cast<std::size_t>(b)][static_cast<std::size_t>(s)] += overlap;
      }
    }
    static const char* kHex = "0123456789abcdef";
    double full = std::max(width * (last - first), 1e-300);  // no rank in the lane: all zero
    RunLengthText text;
    std::string token(kStates.size(), '0');
    for (const Shares& bucket : share) {
      for (std::size_t s = 0; s < kStates.size(); ++s)
        token[s] = kHex[std::clamp(static_cast<int>(std::lround(bucket[s] / full * kShareSteps)), 0, kShareSteps)];
      text.add(token);
    }
    tokens += text.tokens();
    return text.finish();
  }

  // Messages posted per bucket, on a log scale: '0' none, then the digit
  // 1 + floor(log2 n) in base 36.
  std::string message_density(long long buckets, long long& tokens) const
  {
    std::vector<long long> posted(static_cast<std::size_t>(buckets), 0);
    for (const TimelineMessage& m : t_.messages())
      ++posted[static_cast<std::size_t>(
          std::clamp(static_cast<long long>(m.post / end_ * static_cast<double>(buckets)), 0LL, buckets - 1))];
    static const char* kDigits = "0123456789abcdefghijklmnopqrstuvwxyz";
    RunLengthText text;
    for (long long n : posted)
      text.add(std::string(1, kDigits[n == 0 ? 0 : std::min(35, 1 + static_cast<int>(std::floor(std::log2(n))))]));
    tokens += text.tokens();
    return text.finish();
  }

  const Timeline& t_;
  TimelineSummaryLimits limits_;
  double end_;
  int ranks_per_lane_ = 1, lanes_ = 1;
  std::vector<std::size_t> rank_begin_;
  std::vector<int> exact_before_;
  nlohmann::ordered_json names_ = nlohmann::ordered_json::array(), executors_ = nlohmann::ordered_json::array();
  std::map<std::string, int> name_index_, executor_index_;
};

}  // namespace

nlohmann::ordered_json timeline_summary(const Timeline& timeline, const TimelineSummaryLimits& limits)
{
  Summarizer summarizer(timeline, limits);
  nlohmann::ordered_json out;
  out["format"] = "progsim timeline summary";
  out["version"] = 1;
  out["policy"] = timeline.policy();
  out["ranks"] = timeline.nranks();
  out["end"] = rounded(timeline.end());
  out["outcome"] = timeline.outcome();
  out["truncated"] = timeline.capped();
  if (timeline.capped())
    out["truncated_at"] = rounded(timeline.capped_at());
  out["states"] = kStates;
  out["share_steps"] = kShareSteps;
  out["lanes"] = {{"count", summarizer.lanes()}, {"ranks_per_lane", summarizer.ranks_per_lane()}};
  out["levels"] = summarizer.levels();
  out["tiles"] = {{"count", limits.tiles}, {"exact", summarizer.exact_tiles()}};
  summarizer.exact_events(out);
  out["marks"] = summarizer.marks();
  out["totals"] = summarizer.totals();
  return out;
}

}  // namespace progsim::sim
