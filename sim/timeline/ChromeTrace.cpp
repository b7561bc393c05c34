#include "sim/timeline/Timeline.hpp"
#include "sim/timeline/TimelineFormats.hpp"

#include <algorithm>
#include <cmath>
#include <ostream>

namespace progsim::sim {

namespace {

// Rounded to picoseconds: "0.05", not "0.049999999999999996".
double microseconds(double seconds)
{
  return std::round(seconds * 1e12) / 1e6;
}

// One trace event per line, written as it is made: a large timeline is never
// held as one JSON document (nor one string) in memory.
class EventStream {
public:
  explicit EventStream(std::ostream& out) : out_(out) { out_ << "{\"displayTimeUnit\":\"ms\",\"traceEvents\":[\n"; }
  void add(const nlohmann::ordered_json& event)
  {
    out_ << (first_ ? "" : ",\n") << event.dump();
    first_ = false;
  }
  // The metadata comes last: its event count is known once the events are out.
  void finish(const nlohmann::ordered_json& other_data)
  {
    out_ << "\n],\n\"otherData\":" << other_data.dump(1) << "}\n";
  }

private:
  std::ostream& out_;
  bool first_ = true;
};

nlohmann::ordered_json other_data(const Timeline& timeline)
{
  nlohmann::ordered_json data = {{"generator", "progsim"},
                                 {"policy", timeline.policy()},
                                 {"ranks", timeline.nranks()},
                                 {"end_time", timeline.end()},
                                 {"outcome", timeline.outcome()},
                                 {"partial", timeline.partial()}};
  const TimelineSelection& s = timeline.selection();
  data["selection"] = {
      {"ranks", s.all_ranks() ? nlohmann::ordered_json("all") : nlohmann::ordered_json(s.ranks)},
      {"window", {s.from, s.to < 0 ? std::max(s.from, timeline.end()) : s.to}},
      {"max_events", s.max_events}};
  data["events"] = timeline.events();
  data["truncated"] = timeline.capped();
  if (timeline.capped()) {
    data["truncated_at"] = timeline.capped_at();
    data["truncation"] = timeline.capped_note();
  }
  return data;
}

}  // namespace

void write_chrome_trace(const Timeline& timeline, std::ostream& out)
{
  EventStream events(out);
  events.add({{"name", "process_name"},
              {"ph", "M"},
              {"pid", 0},
              {"args", {{"name", "progsim, progress " + timeline.policy()}}}});
  for (int r = 0; r < timeline.nranks(); ++r) {
    if (!timeline.selected(r))
      continue;
    events.add({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", r}, {"args", {{"name", "rank " + std::to_string(r)}}}});
    events.add({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 0}, {"tid", r}, {"args", {{"sort_index", r}}}});
  }
  for (const TimelineInterval& i : timeline.intervals()) {
    nlohmann::ordered_json event = {{"name", i.name},
                                    {"cat", i.kind},
                                    {"ph", "X"},
                                    {"ts", microseconds(i.start)},
                                    {"dur", microseconds(i.end - i.start)},
                                    {"pid", 0},
                                    {"tid", i.rank}};
    if (i.calls > 1)
      event["args"] = {{"calls", i.calls}};
    events.add(event);
  }
  for (const TimelineChunk& c : timeline.chunks()) {
    nlohmann::ordered_json args = {{"executor", c.executor}};
    if (!c.in_call.empty())
      args["in_call"] = c.in_call;
    events.add({{"name", c.what},
                {"cat", "chunk"},
                {"ph", "i"},
                {"s", "t"},
                {"ts", microseconds(c.time)},
                {"pid", 0},
                {"tid", c.owner},
                {"args", args}});
  }
  int id = 0;
  for (const TimelineMessage& m : timeline.messages()) {
    ++id;
    nlohmann::ordered_json args = {{"source", m.source}, {"dest", m.dest}, {"tag", m.tag}, {"bytes", m.bytes}};
    std::string name = "message " + std::to_string(m.bytes) + " B";
    events.add({{"name", name}, {"cat", "message"}, {"ph", "s"}, {"id", id}, {"ts", microseconds(m.post)},
                {"pid", 0}, {"tid", m.source}, {"args", args}});
    events.add({{"name", name}, {"cat", "message"}, {"ph", "f"}, {"bp", "e"}, {"id", id},
                {"ts", microseconds(m.complete)}, {"pid", 0}, {"tid", m.dest}, {"args", args}});
  }
  events.finish(other_data(timeline));
}

}  // namespace progsim::sim
