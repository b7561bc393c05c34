#include "sim/timeline/Timeline.hpp"
#include "sim/timeline/TimelineFormats.hpp"

#include <algorithm>
#include <cmath>

namespace progsim::sim {

namespace {

// Rounded to picoseconds: "0.05", not "0.049999999999999996".
double microseconds(double seconds)
{
  return std::round(seconds * 1e12) / 1e6;
}

}  // namespace

nlohmann::ordered_json chrome_trace(const Timeline& timeline)
{
  nlohmann::ordered_json events = nlohmann::ordered_json::array();
  events.push_back({{"name", "process_name"},
                    {"ph", "M"},
                    {"pid", 0},
                    {"args", {{"name", "progsim, progress " + timeline.policy()}}}});
  for (int r = 0; r < timeline.nranks(); ++r) {
    if (!timeline.selected(r))
      continue;
    events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", 0}, {"tid", r}, {"args", {{"name", "rank " + std::to_string(r)}}}});
    events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", 0}, {"tid", r}, {"args", {{"sort_index", r}}}});
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
    events.push_back(std::move(event));
  }
  for (const TimelineChunk& c : timeline.chunks()) {
    nlohmann::ordered_json args = {{"executor", c.executor}};
    if (!c.in_call.empty())
      args["in_call"] = c.in_call;
    events.push_back({{"name", c.what},
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
    events.push_back({{"name", name}, {"cat", "message"}, {"ph", "s"}, {"id", id}, {"ts", microseconds(m.post)},
                      {"pid", 0}, {"tid", m.source}, {"args", args}});
    events.push_back({{"name", name}, {"cat", "message"}, {"ph", "f"}, {"bp", "e"}, {"id", id},
                      {"ts", microseconds(m.complete)}, {"pid", 0}, {"tid", m.dest}, {"args", args}});
  }
  nlohmann::ordered_json trace;
  trace["displayTimeUnit"] = "ms";
  trace["otherData"] = {{"generator", "progsim"},
                        {"policy", timeline.policy()},
                        {"ranks", timeline.nranks()},
                        {"end_time", timeline.end()},
                        {"outcome", timeline.outcome()},
                        {"partial", timeline.partial()}};
  const TimelineSelection& s = timeline.selection();
  trace["otherData"]["selection"] = {
      {"ranks", s.all_ranks() ? nlohmann::ordered_json("all") : nlohmann::ordered_json(s.ranks)},
      {"window", {s.from, s.to < 0 ? std::max(s.from, timeline.end()) : s.to}},
      {"max_events", s.max_events}};
  trace["otherData"]["events"] = timeline.events();
  trace["otherData"]["truncated"] = timeline.capped();
  if (timeline.capped()) {
    trace["otherData"]["truncated_at"] = timeline.capped_at();
    trace["otherData"]["truncation"] = timeline.capped_note();
  }
  trace["traceEvents"] = events;
  return trace;
}

}  // namespace progsim::sim
