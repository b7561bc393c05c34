// Who executes progress chunks, and when: the one interface behind
// --progress. One implementation per policy (WeakPolicy.cpp, ...), described
// for the catalogue beside it (PolicyDescription.hpp); the rest of the model
// only calls this interface and never asks which policy runs.
#pragma once

#include "progress/ProgressChunk.hpp"

#include <nlohmann/json.hpp>

#include <memory>
#include <string>

namespace progsim::mpi {

class ProgressEngine;
class RankProgress;

class ProgressPolicy {
public:
  virtual ~ProgressPolicy() = default;
  virtual const char* name() const = 0;
  // Creates the policy's agents (progress threads, NICs) once ranks exist.
  virtual void start(ProgressEngine& engine) = 0;
  // A chunk owned by `owner` became executable: queue it for the agent
  // that will run it, or run it now.
  virtual void dispatch(ProgressEngine& engine, RankProgress& owner, ProgressChunk chunk) = 0;
  // The rank is inside an MPI call that progresses; policies whose agents
  // share the host queue with the rank need nothing more.
  virtual void on_rank_progress_point(RankProgress&) {}
  // Whether a wake-up a blocked rank would find nothing in may be applied to
  // its state instead of waking it (RankProgress::wake_unless_selective).
  // Only if on_rank_progress_point does nothing (a progress point of a rank
  // with an empty host queue then changes nothing), and the policy runs a
  // rank's chunks one at a time at distinct instants, so that what wakes the
  // rank at one instant comes from one step (offload's NIC with a nonzero
  // step latency): a look cannot be followed at the same instant by a wake
  // from elsewhere after other ranks were released, whose order SimGrid
  // keeps and a look would lose (under ideal, two arrivals of one round at
  // one instant did that: coll_all, 5 ranks).
  virtual bool wakes_may_be_looks() const { return false; }
  // Whether the policy's agents are actors running beside the ranks
  // (progress threads). A rank's execution of its debt then stays SimGrid's
  // this_actor::execute, five simcalls (sim/HostExecution): an agent on the
  // rank's host runs between them within the instant, and the order in
  // which it then sees the rank's execution start changes its own CPU
  // account (thread: progress_thread_cpu by a poll, 8 ranks 4 per host,
  // trace_rma and rma_semantics).
  virtual bool agents_are_actors() const { return false; }
  // Extra CPU seconds every MPI call costs under this policy (locks).
  virtual double call_overhead() const { return 0; }
  // Host CPU seconds `owner` spends when a collective schedule starts whose
  // rounds after the first hold `later_messages` messages. Policies whose
  // agents post each round when they run it (coll.next_round, chunk-cost)
  // pay nothing here; a NIC cannot create operations, so under offload the
  // host writes all of them to the NIC up front (triggered operations).
  virtual double collective_setup_cost(RankProgress& /*owner*/, std::size_t /*later_messages*/) { return 0; }
  // Whether an agent has work queued or in hand (deadlock detection).
  virtual bool agents_busy() const = 0;
  // A rank ended: its agents may stop.
  virtual void on_rank_end(ProgressEngine&, int /*rank*/) {}
  // The run's policy section of the report (its parameters), if any.
  virtual void add_to_report(nlohmann::ordered_json& /*report*/) const {}
  // The value at `rank` of the policy's `field`-th report field
  // (PolicyDescription::rank_fields).
  virtual double rank_field(int /*rank*/, std::size_t /*field*/) const { return 0; }
};

}  // namespace progsim::mpi
