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
