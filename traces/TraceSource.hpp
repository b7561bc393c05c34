// Where a replayed rank gets its events: a progsim trace (one file with all
// ranks, or a directory with one file per rank), an imported SimGrid
// time-independent trace (TiTraceSource) or an OTF2 archive
// (Otf2TraceSource). Events are read incrementally: memory does not grow
// with the length of the trace.
#pragma once

#include "traces/TraceEvent.hpp"

#include <memory>
#include <string>

namespace progsim::traces {

class RankEventSource {
public:
  virtual ~RankEventSource() = default;
  // The rank's next event; false at the end of its events. Throws TraceError.
  virtual bool next(TraceEvent& event) = 0;
  // "FILE" (for messages about the event last returned).
  virtual const std::string& file() const = 0;
  // What follows file() to name the position of an event: ":" for line
  // numbers ("run.jsonl:4"), ", event " for OTF2 event indices.
  virtual const char* position_separator() const { return ":"; }
  // "FILE:LINE": where the event with that `line` is.
  std::string position(long line) const
  {
    return line > 0 ? file() + position_separator() + std::to_string(line) : file();
  }
};

enum class TraceKind { Progsim, SimgridTi, Otf2 };

struct TraceInfo {
  TraceKind kind = TraceKind::Progsim;
  int nranks = 0;
  nlohmann::json header;  // progsim traces: the header line
  // OTF2 archives: the time between MPI calls is replayed as computation of
  // this many times its measured length (--cfg otf2-compute-scale).
  double compute_scale = 1.0;
};

// Reads what the trace is and how many ranks it has; throws TraceError.
TraceInfo probe_trace(const std::string& path);
// The events of `rank`; throws TraceError.
std::unique_ptr<RankEventSource> open_rank_events(const std::string& path, const TraceInfo& info, int rank);

// Progsim traces. The per-rank file of rank R in a trace directory.
std::string rank_file(const std::string& dir, int rank);
// Parses and checks a header line (throws TraceError naming file and line 1).
nlohmann::json parse_header(const std::string& file, const std::string& line);
// Parses and checks the event line read into event.line_buffer() into
// `event` (line `line_number`); sets `rank` from its "rank" field (-1 if none).
void parse_event(const std::string& file, long line_number, TraceEvent& event, int& rank);

}  // namespace progsim::traces
