// Writes a progsim trace (docs/traces.md) as it is produced: every event is
// one line, flushed at once, so that a run that deadlocks or crashes leaves
// a valid trace of everything up to that point.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdio>
#include <string>
#include <vector>

namespace progsim::traces {

class TraceWriter {
public:
  // `path` ending in '/' or naming an existing directory: one file per rank
  // (DIR/rank-R.jsonl); otherwise one file with all ranks. `about` adds
  // fields to the header (program, policy, platform...). Throws TraceError.
  TraceWriter(const std::string& path, int nranks, const nlohmann::ordered_json& about);
  ~TraceWriter();
  TraceWriter(const TraceWriter&) = delete;
  TraceWriter& operator=(const TraceWriter&) = delete;

  // `event` starts with its "call" key; the writer adds the rank.
  void write(int rank, const nlohmann::ordered_json& event);
  bool per_rank() const { return per_rank_; }

private:
  std::FILE* file_for(int rank);
  void write_line(std::FILE* file, const std::string& line);

  std::string path_;
  int nranks_;
  nlohmann::ordered_json about_;
  bool per_rank_;
  std::FILE* shared_ = nullptr;
  std::vector<std::FILE*> files_;  // per rank, opened at the rank's first event
};

}  // namespace progsim::traces
