// The progress engine of the whole job: one RankProgress per rank, the
// selected policy, chunk execution with its costs, and deadlock detection.
//
// Deadlock: every rank is blocked inside MPI (or has ended), no packet is in
// flight and no agent has work. Then nothing can ever happen again; the run
// ends with a report of who waits for what. A rank polling watched memory
// counts as blocked, and so does a rank held in a loop of test calls that
// find nothing (a livelock, RankProgress::test_found_nothing).
#pragma once

#include "ModelParameters.hpp"
#include "progress/PolicyDescription.hpp"
#include "progress/ProgressDelays.hpp"
#include "progress/ProgressPolicy.hpp"
#include "progress/RankProgress.hpp"

#include <simgrid/s4u/Semaphore.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace progsim::sim {
class Simulation;
}

namespace progsim::mpi {

class ProgressEngine {
public:
  ProgressEngine(sim::Simulation& simulation, const ModelParameters& parameters, const PolicyDescription& description,
                 std::unique_ptr<ProgressPolicy> policy);
  ~ProgressEngine();  // removes its rank state listener
  ProgressEngine(const ProgressEngine&) = delete;
  ProgressEngine& operator=(const ProgressEngine&) = delete;

  // Called once the other parts of the model exist (the fabric's in-flight
  // count, the explanation of what each blocked rank waits for).
  // `diagnose` explains a deadlock: text for the terminal, JSON for the report.
  void start(std::function<std::size_t()> packets_in_flight,
             std::function<std::pair<std::string, nlohmann::ordered_json>()> diagnose,
             std::function<std::size_t(int rank)> posted_receives);
  // Receives posted and not yet matched at `rank` (offload's NIC capacity).
  std::size_t posted_receives(int rank) const { return posted_receives_(rank); }

  RankProgress& rank(int r) { return *ranks_[static_cast<size_t>(r)]; }
  const RankProgress& rank(int r) const { return *ranks_[static_cast<size_t>(r)]; }
  int size() const { return static_cast<int>(ranks_.size()); }
  ProgressPolicy& policy() { return *policy_; }
  const ProgressPolicy& policy() const { return *policy_; }
  const PolicyDescription& policy_description() const { return description_; }
  // "rank", or the label of the policy's agent ("thread").
  const char* label(Executor executor) const;
  const ModelParameters& parameters() const { return parameters_; }
  // Whether RankProgress::wake_unless_selective may apply a rank's look
  // instead of waking it: the policy allows it (wakes_may_be_looks), and
  // PROGSIM_WAKE_EVERY_COMPLETION (the unoptimized path, which wakes the rank
  // at every completion) is not set.
  bool applies_looks() const { return applies_looks_; }
  void note_look_applied() { ++looks_applied_; }
  sim::Simulation& simulation() { return simulation_; }

  // A protocol step of `owner` became executable.
  void enable(int owner, ChunkStep step, int peer, std::uint64_t message_id, std::size_t bytes,
              std::function<void()> action);
  // A collective schedule of `owner` may start round `round` of `rounds`
  // (its previous round's messages completed).
  void enable_round(int owner, const char* call, int round, int rounds, std::function<void()> action);
  // Runs a chunk on behalf of `executor`, accounting its cost and counters.
  // A rank pays chunk-cost on its clock; agents (threads, NICs) pay in their own.
  void execute(RankProgress& owner, ProgressChunk& chunk, Executor executor);

  // Ends the run with a deadlock report if nothing can happen any more.
  // Called whenever something may have become quiet. In the maestro (kernel
  // timers: packet arrivals, NIC steps), where a run cannot be ended, it
  // rings a watcher actor that checks.
  void check_deadlock();
  // Bookkeeping for check_deadlock: a rank started or stopped waiting (in MPI
  // or on watched memory), or ended.
  void note_waiting(bool waiting) { active_ranks_ += waiting ? -1 : 1; }
  void note_rank_end(int rank);
  // Every rank ended: the job is over, what is still in flight is never
  // delivered (as when a launcher tears the processes down).
  bool all_ranks_ended() const { return ended_ranks_ == size(); }
  // The run stopped before its ranks finished (sim::RankModel::on_run_stopped):
  // their memory goes away while the engine still runs pending timers, so
  // from now on no chunk runs, and no arrival or late match takes effect
  // (each would write a receive buffer or read a send buffer of a rank being
  // unwound: a NIC step after a time limit wrote into a freed rank stack).
  void stop_effects() { effects_stopped_ = true; }
  bool effects_stopped() const { return effects_stopped_; }
  // Livelock detection (RankProgress::false_test): a rank's series of test
  // calls that found nothing reached livelock-tests, or ended.
  void note_spinning(bool spinning) { spinning_ranks_ += spinning ? 1 : -1; }
  // Nothing can ever arrive for `self`, a rank looping on test calls: no
  // packet is in flight, no agent has work, and every other rank has ended,
  // waits (blocked in MPI, or polling memory) with nothing queued, or loops on
  // test calls the same way.
  bool nothing_can_arrive(const RankProgress& self) const;
  std::uint64_t chunks_enabled() const { return next_chunk_id_; }
  // No rank is running user code or an MPI call that is not waiting: the
  // cheap precondition of a deadlock (check_deadlock tests the rest).
  bool all_ranks_waiting() const { return active_ranks_ == 0; }
  // The explanation of the deadlock that ended the run (null otherwise).
  const nlohmann::ordered_json& deadlock() const { return deadlock_json_; }
  // The chunks that waited longest for their executor.
  const ProgressDelays& delays() const { return delays_; }

private:
  // Numbers a described chunk, stamps it and hands it to the policy.
  void dispatch_new(ProgressChunk chunk, std::function<void()> action);
  std::string deadlock_report();

  sim::Simulation& simulation_;
  const ModelParameters& parameters_;
  const PolicyDescription& description_;
  std::unique_ptr<ProgressPolicy> policy_;
  std::vector<std::unique_ptr<RankProgress>> ranks_;
  std::function<std::size_t()> packets_in_flight_;
  std::function<std::pair<std::string, nlohmann::ordered_json>()> diagnose_;
  nlohmann::ordered_json deadlock_json_;
  std::function<std::size_t(int)> posted_receives_;
  std::uint64_t next_chunk_id_ = 0;
  // Ranks neither waiting nor ended: while there are any, no deadlock
  // is possible, and check_deadlock (run after every packet) need not look
  // at each rank, which made it O(N) per event.
  int active_ranks_ = 0;
  // Ranks whose current series of false tests reached livelock-tests (some
  // may have left their loop since: an upper bound, for a cheap test).
  int spinning_ranks_ = 0;
  int ended_ranks_ = 0;
  bool effects_stopped_ = false;
  ProgressDelays delays_;
  // The actor that checks for a deadlock on behalf of the maestro.
  simgrid::s4u::SemaphorePtr watcher_wakeup_;
  bool watcher_ringing_ = false;
  bool applies_looks_ = false;
  std::uint64_t looks_applied_ = 0;  // PROGSIM_COUNT_LOOKS prints it (tests)
};

}  // namespace progsim::mpi
