// What the runtime needs from the library model that runs inside the ranks
// (the MPI model implements it). Keeps sim/ free of MPI knowledge.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace progsim::sim {

class Config;
class Rank;
class Simulation;

class RankModel {
public:
  virtual ~RankModel() = default;
  // Declares the model's --cfg parameters (before options are applied).
  virtual void register_parameters(Config& config) = 0;
  // Called once the ranks exist, before any of them runs.
  virtual void on_simulation_start(Simulation& simulation) = 0;
  // A rank returned from main (or called exit()) after MPI_Finalize.
  virtual void on_rank_end(Rank&) {}
  // CPU seconds every MPI call costs on top of call-cost (e.g. locking).
  virtual double call_overhead() const { return 0; }
  // Every rank finished: the rules of the standard the program broke (found
  // while it ran and by the checks only the end allows), as the run's
  // message; "" when none (the run completed, else it is erroneous).
  virtual std::string standard_errors_at_completion() { return ""; }
  // Extra fields for the JSON report, globally and per rank.
  virtual void add_to_report(nlohmann::ordered_json& report) const = 0;
  virtual void add_rank_to_report(const Rank& rank, nlohmann::ordered_json& entry) const = 0;
  // The run stopped before its ranks finished (time limit, a rank's crash,
  // abort or fatal error): they are about to be killed and unwound, and the
  // memory they own (stacks, and heap blocks their destructors free) goes
  // away. The engine still runs its pending timers and network transfers
  // meanwhile; the model must make no more effects on that memory.
  virtual void on_run_stopped() {}
  // SimGrid's engine is about to be destroyed (the model may outlive it):
  // release the SimGrid objects the model holds.
  virtual void on_simulation_teardown() {}
};

}  // namespace progsim::sim
