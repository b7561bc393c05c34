// What every rank did over simulated time, recorded for `--timeline FILE`:
// state intervals (user code, MPI call, blocked, sleeping, polling), the
// progress chunks each executor ran, and messages from send to receive.
//
// Recording is off unless a run asks for it (Timeline::active() is null),
// so the hooks in Rank::set_state and the MPI model cost one test. Other
// parts of the model (RMA epochs, collective schedules) add their steps with
// chunk() and their transfers with message(); a blocked call is already an
// interval of kind "blocked" named after the call.
#pragma once

#include "sim/timeline/TimelineSelection.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace progsim::sim {

class Rank;

struct TimelineInterval {
  int rank = 0;
  double start = 0;
  double end = 0;
  std::string kind;  // "user", "mpi", "blocked", "sleeping", "polling"
  std::string name;  // the MPI call, or the kind in words
  // Back-to-back intervals of the same kind and name (a loop of MPI_Wtime or
  // MPI_Iprobe calls with no user time between them) are recorded as one,
  // which keeps a timeline of millions of calls small; `calls` counts them.
  long long calls = 1;
};

struct TimelineChunk {
  int owner = 0;         // the rank whose MPI library the step belongs to
  double time = 0;
  std::string executor;  // "rank", or the label of the progress policy's agent ("thread", ...)
  std::string what;      // ProgressChunk::describe()
  std::string in_call;   // executor "rank": the MPI call that ran it (e.g. MPI_Finalize)
};

struct TimelineMessage {
  int source = 0;
  int dest = 0;
  int tag = 0;
  std::size_t bytes = 0;
  double post = 0;      // the send started
  double complete = 0;  // the receive completed
};

class Timeline {
public:
  // The recording of this run, or nullptr when none was asked for.
  static Timeline* active() { return active_; }
  // Records only what `selection` lets in (ranks, time window, event cap).
  static void start(int nranks, std::string policy, TimelineSelection selection = {});
  // Closes the open intervals at `end` and stops recording; the recording
  // stays readable through recorded() until the next start(). `outcome` is
  // how the run ended: any other than "completed" marks the timeline
  // partial (ranks were cut off where they were).
  static void stop(double end, std::string outcome);
  static const Timeline& recorded();

  void rank_state(const Rank& rank);
  void chunk(int owner, double time, const char* executor, std::string what, const char* in_call = nullptr);
  void message(const TimelineMessage& message);

  int nranks() const { return nranks_; }
  const std::string& policy() const { return policy_; }
  double end() const { return end_; }
  const std::string& outcome() const { return outcome_; }
  bool partial() const { return outcome_ != "completed"; }
  const std::vector<TimelineInterval>& intervals() const { return intervals_; }
  const std::vector<TimelineChunk>& chunks() const { return chunks_; }
  const std::vector<TimelineMessage>& messages() const { return messages_; }
  const TimelineSelection& selection() const { return selection_; }
  bool selected(int rank) const { return selected_[static_cast<std::size_t>(rank)] != 0; }
  // Trace events recorded (a message is two: its start and its end).
  long long events() const { return events_; }
  // The event cap was reached at simulated time capped_at(): later events
  // were not recorded. capped_note() says so in words ("" when not capped).
  bool capped() const { return capped_; }
  double capped_at() const { return capped_at_; }
  std::string capped_note() const;

private:
  struct Open {
    bool open = false;
    TimelineInterval interval;
    std::size_t last_recorded = kNone;  // index in intervals_ of the rank's last closed interval
  };
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);
  // The recording while one runs (read by every rank state change).
  static inline Timeline* active_ = nullptr;
  void close(int rank, double time);
  // Whether `count` more events at `time` fit under the cap (counts them).
  bool admit(long long count, double time);
  bool in_window(double time) const
  {
    return time >= selection_.from && (selection_.to < 0 || time <= selection_.to);
  }

  int nranks_ = 0;
  std::string policy_;
  double end_ = 0;
  std::string outcome_;
  std::vector<Open> open_;
  std::vector<TimelineInterval> intervals_;
  std::vector<TimelineChunk> chunks_;
  std::vector<TimelineMessage> messages_;
  TimelineSelection selection_;
  std::vector<char> selected_;  // per rank
  long long events_ = 0;
  bool capped_ = false;
  double capped_at_ = 0;
};

}  // namespace progsim::sim
