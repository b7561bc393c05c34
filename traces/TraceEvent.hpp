// One event of a progsim trace, and the error raised for bad trace input.
// The format is described in docs/traces.md.
#pragma once

#include <nlohmann/json.hpp>

#include <stdexcept>
#include <string>

namespace progsim::traces {

// Identifies a progsim trace in its header line. The version is bumped when
// events are added (2: one-sided communication) or a field an older reader
// knows changes meaning (3: a reduction's count is of items of "elements"
// elements, docs/traces.md); a reader reads every version from
// kOldestFormatVersion, whose events keep their meaning.
inline constexpr const char* kFormatName = "progsim-trace";
inline constexpr int kFormatVersion = 3;
inline constexpr int kOldestFormatVersion = 1;

// An event of one rank: `call` names it ("isend", "compute", ...); `fields`
// holds the whole JSON object (validated against the schema, TraceSchema).
struct TraceEvent {
  std::string call;
  nlohmann::json fields;
  long line = 0;  // line of the event in its file (1-based), for messages
  // Index among its rank's events (0-based; RankReplay counts them): a
  // memory_wait names the write it waits for by the writer's event index.
  long long index = -1;

  long long integer(const char* key) const { return fields.at(key).get<long long>(); }
  int small(const char* key) const { return fields.at(key).get<int>(); }
  double number(const char* key) const { return fields.at(key).get<double>(); }
  bool has(const char* key) const { return fields.contains(key); }
};

// Malformed or inconsistent trace input: "FILE:LINE: reason".
class TraceError : public std::runtime_error {
public:
  TraceError(const std::string& file, long line, const std::string& reason)
      : std::runtime_error(file + (line > 0 ? ":" + std::to_string(line) : std::string()) + ": " + reason)
  {
  }
};

}  // namespace progsim::traces
