// progsim calibrate's fit of the `thread` policy to a real MPI's
// asynchronous progress mode (calibrate --async-progress ENV=VALUE, e.g.
// MPICH's MPIR_CVAR_ASYNC_PROGRESS=1): the probes' lines measured with that
// environment (progress=async) give the time the overlap probe's sender
// waited beyond the transfer itself while the receiver computed, and the
// half round trip of an empty message; the thread policy's parameters
// (thread-interval, thread-poll-cost, thread-lock-cost) are searched with
// progsim runs of the same probes until both agree. docs/calibrate.md.
#pragma once

#include "progsim/CalibrationFit.hpp"

#include <nlohmann/json.hpp>

#include <functional>
#include <string>
#include <vector>

namespace progsim::cli {

// What the async-mode probes show (real or simulated); NaN when absent.
struct AsyncMeasure {
  long long size = -1;  // the overlap probe's message (a rendezvous one)
  double compute = 0;   // the receiver's compute phase
  double completion = 0;  // recv_side_send_time: the sender's MPI_Send, the receiver computing
  double transfer = 0;    // the half round trip of `size` in the same mode
  // completion - transfer: how long the message waited for someone to
  // progress the receiver (its progress thread) on top of moving it.
  double delay = 0;
  long long small_size = 0;
  double half_rtt_small = 0;  // the half round trip of the smallest size
  // CPU used by the receiver's process while the rank slept: its progress
  // thread's share of a core (real MPI only: progsim's lines say nothing).
  double cpu_fraction = 0;
  bool async_progress = false;  // the sender finished before the compute phase did
  int provided = -1;            // MPI_Init_thread's provided level, -1 unknown
  bool measured = false;        // an overlap and both ping-pong sizes present
};

AsyncMeasure async_measure(const std::vector<ProbeLine>& lines, const std::string& transport = "shm");
nlohmann::ordered_json async_measure_json(const AsyncMeasure& m);

// One progsim run of the async probes with the thread policy and these
// --cfg settings; its lines (progress=async).
using ThreadTrial = std::function<std::vector<ProbeLine>(const nlohmann::ordered_json& cfg)>;

struct ThreadFit {
  double interval = 0, poll_cost = 0, lock_cost = 0;
  AsyncMeasure simulated;  // progsim's probes with these values
  nlohmann::ordered_json trials = nlohmann::ordered_json::array();  // every run of the search
  nlohmann::ordered_json cfg() const;  // thread-interval, thread-poll-cost, thread-lock-cost
};

// The search: the poll cost is the measured busy fraction of the interval
// (the thread's share of a core while its rank computes); the interval by
// secant steps on the delay, then the lock cost by secant steps on the half
// round trip (at most 8 runs each), twice when the lock cost moved the delay
// more than 5%. Deterministic: progsim's runs are.
ThreadFit fit_thread_policy(const AsyncMeasure& real, const ThreadTrial& trial);

}  // namespace progsim::cli
