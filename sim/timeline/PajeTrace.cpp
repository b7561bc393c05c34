#include "sim/timeline/Timeline.hpp"
#include "sim/timeline/TimelineFormats.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace progsim::sim {

namespace {

// The event definitions used below (Paje file format, Schnorr et al.).
const char* kHeader =
    "%EventDef PajeDefineContainerType 0\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineStateType 1\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineEventType 2\n%  Alias string\n%  Type string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeDefineLinkType 3\n%  Alias string\n%  Type string\n%  StartContainerType string\n"
    "%  EndContainerType string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeCreateContainer 4\n%  Time date\n%  Alias string\n%  Type string\n%  Container string\n"
    "%  Name string\n%EndEventDef\n"
    "%EventDef PajeDestroyContainer 5\n%  Time date\n%  Type string\n%  Name string\n%EndEventDef\n"
    "%EventDef PajeSetState 6\n%  Time date\n%  Type string\n%  Container string\n%  Value string\n%EndEventDef\n"
    "%EventDef PajeNewEvent 7\n%  Time date\n%  Type string\n%  Container string\n%  Value string\n%EndEventDef\n"
    "%EventDef PajeStartLink 8\n%  Time date\n%  Type string\n%  Container string\n%  Value string\n"
    "%  StartContainer string\n%  Key string\n%EndEventDef\n"
    "%EventDef PajeEndLink 9\n%  Time date\n%  Type string\n%  Container string\n%  Value string\n"
    "%  EndContainer string\n%  Key string\n%EndEventDef\n";

std::string quoted(const std::string& text)
{
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? '\'' : c;
  return out + "\"";
}

std::string time_text(double seconds)
{
  char buf[40];
  std::snprintf(buf, sizeof buf, "%.9f", seconds);
  return buf;
}

struct Line {
  double time;
  int order;  // keeps the file order stable among events at the same time
  std::string text;
};

}  // namespace

std::string paje_trace(const Timeline& timeline)
{
  // Paje readers skip '#' lines: the mark is for the reader of the file.
  std::string out = timeline.partial() ? "# partial timeline: the run ended as " + timeline.outcome() + " at " +
                                             time_text(timeline.end()) + " s\n"
                                       : "";
  if (timeline.capped())
    out += "# truncated timeline: " + timeline.capped_note() + "\n";
  out += kHeader;
  out += "0 CT_Job 0 \"Job\"\n0 CT_Rank CT_Job \"Rank\"\n";
  out += "1 ST_State CT_Rank \"State\"\n2 ET_Chunk CT_Rank \"Progress chunk\"\n";
  out += "3 LT_Message CT_Job CT_Rank CT_Rank \"Message\"\n";
  out += "4 0.000000000 job CT_Job 0 " + quoted("progress " + timeline.policy()) + "\n";
  for (int r = 0; r < timeline.nranks(); ++r)
    out += "4 0.000000000 rank" + std::to_string(r) + " CT_Rank job \"rank " + std::to_string(r) + "\"\n";

  std::vector<Line> lines;
  int order = 0;
  auto add = [&](double time, std::string text) { lines.push_back(Line{time, order++, std::move(text)}); };
  for (const TimelineInterval& i : timeline.intervals()) {
    std::string container = "rank" + std::to_string(i.rank);
    add(i.start, "6 " + time_text(i.start) + " ST_State " + container + " " + quoted(i.kind + ": " + i.name));
    add(i.end, "6 " + time_text(i.end) + " ST_State " + container + " \"idle\"");
  }
  for (const TimelineChunk& c : timeline.chunks())
    add(c.time, "7 " + time_text(c.time) + " ET_Chunk rank" + std::to_string(c.owner) + " " +
                    quoted(c.executor + ": " + c.what));
  int key = 0;
  for (const TimelineMessage& m : timeline.messages()) {
    std::string k = "m" + std::to_string(++key);
    std::string value = quoted(std::to_string(m.bytes) + " B, tag " + std::to_string(m.tag));
    add(m.post, "8 " + time_text(m.post) + " LT_Message job " + value + " rank" + std::to_string(m.source) + " " + k);
    add(m.complete,
        "9 " + time_text(m.complete) + " LT_Message job " + value + " rank" + std::to_string(m.dest) + " " + k);
  }
  // Paje readers want events in time order.
  std::stable_sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.time != b.time ? a.time < b.time : a.order < b.order;
  });
  for (const Line& l : lines)
    out += l.text + "\n";
  for (int r = 0; r < timeline.nranks(); ++r)
    out += "5 " + time_text(timeline.end()) + " CT_Rank rank" + std::to_string(r) + "\n";
  out += "5 " + time_text(timeline.end()) + " CT_Job job\n";
  return out;
}

}  // namespace progsim::sim
