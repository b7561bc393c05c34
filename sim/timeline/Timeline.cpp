#include "sim/timeline/Timeline.hpp"

#include "sim/Rank.hpp"

#include <algorithm>
#include <cstring>

namespace progsim::sim {

namespace {

Timeline& storage()
{
  static Timeline timeline;
  return timeline;
}
bool recording = false;

// The interval kind of a rank state; "" for states that end the rank's line.
const char* kind_of(RankState state)
{
  switch (state) {
    case RankState::UserCode: return "user";
    case RankState::InMpi: return "mpi";
    case RankState::Blocked: return "blocked";
    case RankState::Sleeping: return "sleeping";
    case RankState::Polling: return "polling";
    default: return "";
  }
}

}  // namespace

Timeline* Timeline::active()
{
  return recording ? &storage() : nullptr;
}

void Timeline::start(int nranks, std::string policy)
{
  Timeline& t = storage();
  t = Timeline{};
  t.nranks_ = nranks;
  t.policy_ = std::move(policy);
  t.open_.resize(static_cast<std::size_t>(nranks));
  recording = true;
}

void Timeline::stop(double end, std::string outcome)
{
  Timeline& t = storage();
  if (!recording)
    return;
  for (int r = 0; r < t.nranks_; ++r)
    t.close(r, end);
  t.end_ = end;
  t.outcome_ = std::move(outcome);
  // Ranks killed at a deadlock may still have charged their last CPU debt:
  // nothing is shown after the end of the run.
  std::vector<TimelineInterval> kept;
  for (TimelineInterval i : t.intervals_) {
    i.end = std::min(i.end, end);
    if (i.start < i.end)
      kept.push_back(i);
  }
  t.intervals_ = std::move(kept);
  // Intervals are recorded as they close; the files list them by rank, then time.
  std::stable_sort(t.intervals_.begin(), t.intervals_.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
  });
  recording = false;
}

const Timeline& Timeline::recorded()
{
  return storage();
}

void Timeline::close(int rank, double time)
{
  Open& o = open_[static_cast<std::size_t>(rank)];
  if (!o.open)
    return;
  o.open = false;
  o.interval.end = std::max(time, o.interval.start);
  if (o.interval.end <= o.interval.start)
    return;
  if (o.last_recorded != kNone) {
    TimelineInterval& last = intervals_[o.last_recorded];
    if (last.end == o.interval.start && last.kind == o.interval.kind && last.name == o.interval.name) {
      last.end = o.interval.end;
      last.calls += o.interval.calls;
      return;
    }
  }
  o.last_recorded = intervals_.size();
  intervals_.push_back(o.interval);
}

void Timeline::rank_state(const Rank& rank)
{
  // Called twice per MPI call: no string is built unless an interval opens,
  // and then the open interval's strings are reused.
  const char* kind = kind_of(rank.state());
  const bool in_call = std::strcmp(kind, "mpi") == 0 || std::strcmp(kind, "blocked") == 0;
  const char* name = rank.current_call() && in_call ? rank.current_call()
                     : std::strcmp(kind, "user") == 0 ? "user code"
                                                       : kind;
  double now = rank.clock().now();
  Open& o = open_[static_cast<std::size_t>(rank.id())];
  if (o.open && o.interval.kind == kind && o.interval.name == name)
    return;
  close(rank.id(), now);
  if (!*kind)
    return;
  o.open = true;
  o.interval.rank = rank.id();
  o.interval.start = o.interval.end = now;
  o.interval.kind.assign(kind);
  o.interval.name.assign(name);
  o.interval.calls = 1;
}

void Timeline::chunk(int owner, double time, const char* executor, std::string what, const char* in_call)
{
  chunks_.push_back(TimelineChunk{owner, time, executor, std::move(what), in_call ? in_call : ""});
}

void Timeline::message(const TimelineMessage& message)
{
  messages_.push_back(message);
}

}  // namespace progsim::sim
