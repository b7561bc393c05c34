#include "sim/timeline/Timeline.hpp"

#include "sim/Diagnostics.hpp"
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

void Timeline::start(int nranks, std::string policy, TimelineSelection selection)
{
  Timeline& t = storage();
  t = Timeline{};
  t.nranks_ = nranks;
  t.policy_ = std::move(policy);
  t.open_.resize(static_cast<std::size_t>(nranks));
  t.selected_.assign(static_cast<std::size_t>(nranks), selection.all_ranks() ? 1 : 0);
  for (int r : selection.ranks)
    if (r >= 0 && r < nranks)
      t.selected_[static_cast<std::size_t>(r)] = 1;
  t.selection_ = std::move(selection);
  active_ = &t;
}

void Timeline::stop(double end, std::string outcome)
{
  Timeline& t = storage();
  if (!active_)
    return;
  for (int r = 0; r < t.nranks_; ++r)
    t.close(r, end);
  t.end_ = end;
  t.outcome_ = std::move(outcome);
  // Ranks killed at a deadlock may still have charged their last CPU debt,
  // and run a chunk on their clock ahead of the engine's: nothing is shown
  // after the end of the run.
  for (TimelineInterval& i : t.intervals_)
    i.end = std::min(i.end, end);
  auto drop = [](auto& list, auto after_end) { list.erase(std::remove_if(list.begin(), list.end(), after_end), list.end()); };
  drop(t.intervals_, [](const TimelineInterval& i) { return i.start >= i.end; });
  drop(t.chunks_, [end](const TimelineChunk& c) { return c.time > end; });
  drop(t.messages_, [end](const TimelineMessage& m) { return m.complete > end; });
  // Intervals are recorded as they close; the files list them by rank, then time.
  std::stable_sort(t.intervals_.begin(), t.intervals_.end(), [](const auto& a, const auto& b) {
    return a.rank != b.rank ? a.rank < b.rank : a.start < b.start;
  });
  active_ = nullptr;
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
  // Only the part inside the window is kept.
  o.interval.start = std::max(o.interval.start, selection_.from);
  if (selection_.to >= 0)
    o.interval.end = std::min(o.interval.end, selection_.to);
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
  if (!admit(1, o.interval.start))
    return;
  o.last_recorded = intervals_.size();
  intervals_.push_back(o.interval);
}

bool Timeline::admit(long long count, double time)
{
  if (capped_)
    return false;
  if (selection_.max_events > 0 && events_ + count > selection_.max_events) {
    capped_ = true;
    capped_at_ = time;
    diag("timeline: " + capped_note());
    return false;
  }
  events_ += count;
  return true;
}

std::string Timeline::capped_note() const
{
  if (!capped_)
    return "";
  return "the event cap (--timeline-max-events " + std::to_string(selection_.max_events) + ") was reached at " +
         format_time(capped_at_) + ": later events are not recorded (restrict the timeline with " +
         "--timeline-ranks or --timeline-window, or raise the cap)";
}

void Timeline::rank_state(const Rank& rank)
{
  // Called twice per MPI call: no string is built unless an interval opens,
  // and then the open interval's strings are reused.
  if (!selected_[static_cast<std::size_t>(rank.id())])
    return;
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
  if (!selected(owner) || !in_window(time) || !admit(1, time))
    return;
  chunks_.push_back(TimelineChunk{owner, time, executor, std::move(what), in_call ? in_call : ""});
}

void Timeline::message(const TimelineMessage& message)
{
  if (!selected(message.source) && !selected(message.dest))
    return;
  if (message.complete < selection_.from || (selection_.to >= 0 && message.post > selection_.to))
    return;
  if (!admit(2, message.post))
    return;
  messages_.push_back(message);
}

}  // namespace progsim::sim
