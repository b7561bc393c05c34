// progsim calibrate's fit: from the probe lines of one MPI (real or
// simulated; tools/progsim/calibrate/calibrate_probe.c prints them) to the
// platform and model parameters that make progsim behave like it. Pure
// functions: the recorded outputs of tests/calibrate/ are fitted without MPI.
#pragma once

#include <nlohmann/json.hpp>

#include <map>
#include <string>
#include <vector>

namespace progsim::cli {

// One result line, "transport=shm probe=pingpong size=1024 half_rtt=2.7e-07 ...".
struct ProbeLine {
  std::string transport;  // shm (two ranks on one host) | network (on two hosts)
  // "" (the MPI as launched) | async (with calibrate --async-progress's
  // environment: its progress thread on). Only "" lines give the platform
  // and the weak-progress parameters.
  std::string progress;
  std::string probe;      // pingpong | block | overlap | flag
  long long size = 0;
  std::map<std::string, double> values;
  double value(const std::string& key) const;  // NaN when absent
};

// Parses the lines that start with "transport=" (other lines are ignored).
std::vector<ProbeLine> parse_probe_lines(const std::string& text);

// What one transport's probes show, and the fit.
struct TransportFit {
  std::string transport;
  // Ping-pong: half round trip = latency + size / bandwidth. Latency is the
  // intercept of a least-squares line through the eagerly sent sizes,
  // bandwidth the inverse slope of one through the larger ones (the bulk
  // transfer rate a long message sees).
  double latency = 0;    // s
  double bandwidth = 0;  // bytes/s
  struct Residual {
    long long size;
    double measured, fitted;  // s
  };
  std::vector<Residual> residuals;
  // Blocking probe: the largest size whose MPI_Send returned before the
  // receiver's compute phase ended (eager), and the sizes whose send waited.
  long long eager_threshold = -1;  // -1: no block probe
  std::vector<long long> blocking_sizes;
  // Overlap probe at the largest blocking size: the receiver got the data
  // while the sender computed (the target pulls it: RDMA get), and the sender
  // finished while the receiver computed (something progressed the receiver:
  // an asynchronous progress thread).
  std::string rendezvous = "push";
  bool async_progress = false;
  // Shared-flag probe (MPI-4.1 Example 12.x): sizes that deadlocked. Its
  // MPI_Bsend of a rendezvous size deadlocks when the sender must push the
  // data (no progress while it polls the flag), completes when the receiver
  // pulls it: the buffered sends' variant, "" when no size tells.
  std::string rendezvous_buffered;
  std::vector<long long> deadlock_sizes;
  std::vector<long long> flag_sizes;
  bool measured() const { return bandwidth > 0; }
};

// Fits each transport present in `lines` (shm first).
std::vector<TransportFit> fit_transports(const std::vector<ProbeLine>& lines);

// The --cfg settings the fit gives: eager-threshold-shm/-network and
// rendezvous-shm/-network.
nlohmann::ordered_json fit_cfg(const std::vector<TransportFit>& fits);
nlohmann::ordered_json fit_to_json(const TransportFit& fit);

// A SimGrid platform: a flat cluster whose loopback (ranks of one host) and
// links (between hosts) have the fitted latency and bandwidth; a transport
// not measured keeps small-cluster.xml's values, said in the comment.
std::string platform_xml(const std::vector<TransportFit>& fits, const std::string& comment, int cores);

// The half round trip at `size` in `lines` (the probe's median), NaN if absent.
double half_round_trip(const std::vector<ProbeLine>& lines, const std::string& transport, long long size,
                       const std::string& progress = "");

// The lines of one transport, probe and progress mode, by size.
std::vector<const ProbeLine*> select_lines(const std::vector<ProbeLine>& lines, const std::string& transport,
                                           const std::string& probe, const std::string& progress = "");

// A send "waited" when it took more than half the receiver's compute phase:
// an eager send returns in microseconds, a rendezvous one after the phase.
bool waited(double time, double compute);

}  // namespace progsim::cli
