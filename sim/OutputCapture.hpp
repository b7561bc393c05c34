// Deterministic, per-rank attribution of the ranks' stdout and stderr.
//
// All ranks share one process, so fd 1 and 2 are redirected to in-memory
// files while the simulation runs. Whenever a rank is about to give control
// back to the simulator (it enters MPI, sleeps, or ends), whatever it wrote
// since it was resumed is collected and forwarded to the real stdout/stderr,
// with a "[rank] " prefix per line under --tag-output. Ranks run one at a
// time in simulated-time order, so the output is in that order too.
#pragma once

#include <map>
#include <string>

namespace progsim::sim {

class OutputCapture {
public:
  // Redirects fd 1 and 2. Safe to call once; stop() undoes it.
  static void start(bool tag_output);
  static void stop();
  static bool active();

  // Forwards what has been written since the last collect, attributed to
  // `rank` (-1: the simulator itself; never tagged).
  static void collect(int rank);

  // Writes to the real stderr, bypassing the capture (progsim's messages).
  static void write_diagnostic(const std::string& text);
  // Writes to the real stdout (reports printed by progsim commands).
  static void write_stdout(const std::string& text);

private:
  struct Stream {
    int captured_fd = -1;  // the memfd now behind fd 1 or 2
    int real_fd = -1;      // a dup of the original fd 1 or 2
    std::map<int, std::string> partial_lines;  // per rank, for tagging
  };
  static void drain(Stream& stream, int rank);
  static void emit(Stream& stream, int rank, const char* data, size_t size);

  static Stream out_;
  static Stream err_;
  static bool tag_output_;
  static bool active_;
};

}  // namespace progsim::sim
