// Deterministic, per-rank attribution of the ranks' stdout and stderr.
//
// All ranks share one process, so fd 1 and 2 are redirected to in-memory
// files while the simulation runs. Ranks run one at a time in simulated-time
// order and write to the same files, so the bytes are in that order. Under
// --tag-output, whenever a rank gives control back to the simulator (it
// blocks in MPI, sleeps, or ends), what it wrote since it was resumed is
// forwarded with a "[rank] " prefix per line. Untagged, the files are
// forwarded at most every 10 ms of host time at those points (and always at
// the end, a crash, and before progsim's own messages): the same bytes,
// without two system calls per blocking call (a fifth of a ping-pong's cost).
// The C streams' buffers are shared by the ranks too: a rank that leaves
// user code with bytes in them has them forwarded as its own at once, and a
// rank's line is forwarded when complete (each MPI process has a stdout of
// its own, and launchers forward their lines whole), tagged or not.
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
  // The original stderr (a duplicate while capturing), for ProgressLine.
  static int real_stderr();

  // Forwards what has been written since the last collect, attributed to
  // `rank` (-1: the simulator itself; never tagged).
  static void collect(int rank);
  // The rank gives control back to the simulator: flushes the C streams
  // (keeping the order of the ranks' writes) and forwards what is due.
  static void yield_point(int rank);
  // The rank leaves its user code (LibcState): what it wrote into the C
  // streams' buffers is its output, forwarded now. Costs nothing when it
  // wrote nothing.
  static void user_code_left(int rank);

  // Writes to the real stderr, bypassing the capture (progsim's messages).
  static void write_diagnostic(const std::string& text);
  // Writes to the real stdout (reports printed by progsim commands).
  static void write_stdout(const std::string& text);

private:
  struct Stream {
    int captured_fd = -1;  // the memfd now behind fd 1 or 2
    int real_fd = -1;      // a dup of the original fd 1 or 2
    std::map<int, std::string> partial_lines;  // per rank: lines are forwarded whole
  };
  static void drain(Stream& stream, int rank);
  static bool forwarding_due();
  static void emit(Stream& stream, int rank, const char* data, size_t size);

  static Stream out_;
  static Stream err_;
  static bool tag_output_;
  static bool active_;
};

}  // namespace progsim::sim
