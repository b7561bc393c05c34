#include "sim/timeline/Timeline.hpp"
#include "sim/timeline/TimelineFormats.hpp"

#include <algorithm>
#include <cstdio>
#include <ostream>
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

// A line to write, by what it refers to: sorting these small records (not
// the lines' text) puts the file in time order.
struct Line {
  double time;
  std::size_t order;  // keeps the recording order among lines at the same time
  enum Kind : char { StateStart, StateEnd, Chunk, LinkStart, LinkEnd } kind;
  std::size_t index;  // into the timeline's intervals, chunks or messages
};

void write_line(std::ostream& out, const Timeline& timeline, const Line& line)
{
  const std::string time = time_text(line.time);
  switch (line.kind) {
    case Line::StateStart: {
      const TimelineInterval& i = timeline.intervals()[line.index];
      out << "6 " << time << " ST_State rank" << i.rank << " " << quoted(i.kind + ": " + i.name) << "\n";
      break;
    }
    case Line::StateEnd:
      out << "6 " << time << " ST_State rank" << timeline.intervals()[line.index].rank << " \"idle\"\n";
      break;
    case Line::Chunk: {
      const TimelineChunk& c = timeline.chunks()[line.index];
      out << "7 " << time << " ET_Chunk rank" << c.owner << " " << quoted(c.executor + ": " + c.what) << "\n";
      break;
    }
    case Line::LinkStart:
    case Line::LinkEnd: {
      const TimelineMessage& m = timeline.messages()[line.index];
      std::string value = quoted(std::to_string(m.bytes) + " B, tag " + std::to_string(m.tag));
      bool start = line.kind == Line::LinkStart;
      out << (start ? "8 " : "9 ") << time << " LT_Message job " << value << " rank" << (start ? m.source : m.dest)
          << " m" << line.index + 1 << "\n";
      break;
    }
  }
}

}  // namespace

void write_paje_trace(const Timeline& timeline, std::ostream& out)
{
  // Paje readers skip '#' lines: the mark is for the reader of the file.
  if (timeline.partial())
    out << "# partial timeline: the run ended as " << timeline.outcome() << " at " << time_text(timeline.end())
        << " s\n";
  if (timeline.capped())
    out << "# truncated timeline: " << timeline.capped_note() << "\n";
  out << kHeader;
  out << "0 CT_Job 0 \"Job\"\n0 CT_Rank CT_Job \"Rank\"\n";
  out << "1 ST_State CT_Rank \"State\"\n2 ET_Chunk CT_Rank \"Progress chunk\"\n";
  out << "3 LT_Message CT_Job CT_Rank CT_Rank \"Message\"\n";
  out << "4 0.000000000 job CT_Job 0 " << quoted("progress " + timeline.policy()) << "\n";
  for (int r = 0; r < timeline.nranks(); ++r)
    out << "4 0.000000000 rank" << r << " CT_Rank job \"rank " << r << "\"\n";

  std::vector<Line> lines;
  lines.reserve(2 * (timeline.intervals().size() + timeline.messages().size()) + timeline.chunks().size());
  auto add = [&](double time, Line::Kind kind, std::size_t index) {
    lines.push_back(Line{time, lines.size(), kind, index});
  };
  for (std::size_t k = 0; k < timeline.intervals().size(); ++k) {
    add(timeline.intervals()[k].start, Line::StateStart, k);
    add(timeline.intervals()[k].end, Line::StateEnd, k);
  }
  for (std::size_t k = 0; k < timeline.chunks().size(); ++k)
    add(timeline.chunks()[k].time, Line::Chunk, k);
  for (std::size_t k = 0; k < timeline.messages().size(); ++k) {
    add(timeline.messages()[k].post, Line::LinkStart, k);
    add(timeline.messages()[k].complete, Line::LinkEnd, k);
  }
  // Paje readers want events in time order.
  std::sort(lines.begin(), lines.end(), [](const Line& a, const Line& b) {
    return a.time != b.time ? a.time < b.time : a.order < b.order;
  });
  for (const Line& l : lines)
    write_line(out, timeline, l);
  for (int r = 0; r < timeline.nranks(); ++r)
    out << "5 " << time_text(timeline.end()) << " CT_Rank rank" << r << "\n";
  out << "5 " << time_text(timeline.end()) << " CT_Job job\n";
}

}  // namespace progsim::sim
