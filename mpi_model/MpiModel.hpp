// The MPI library model as the rank runtime sees it: per-rank MPI state,
// parameters, and the report fields it adds. One instance per simulation.
#pragma once

#include "ModelParameters.hpp"
#include "core/Process.hpp"
#include "sim/RankModel.hpp"

#include <boost/intrusive_ptr.hpp>

#include <memory>
#include <string>
#include <vector>

namespace simgrid::s4u {
class Barrier;
}

namespace progsim::sim {
class Rank;
}

namespace progsim::mpi {

class MpiModel final : public sim::RankModel {
public:
  explicit MpiModel(std::string policy);
  ~MpiModel() override;

  static MpiModel& instance();
  const ModelParameters& parameters() const { return parameters_; }
  const std::string& policy() const { return policy_; }
  Process& process(int rank) { return processes_[rank]; }
  sim::Simulation& simulation() { return *simulation_; }

  // The interim world barrier (replaced by the collective engine).
  void world_barrier();

  void register_parameters(sim::Config& config) override;
  void on_simulation_start(sim::Simulation& simulation) override;
  void add_to_report(nlohmann::ordered_json& report) const override;
  void add_rank_to_report(const sim::Rank& rank, nlohmann::ordered_json& entry) const override;

private:
  std::string policy_;
  ModelParameters parameters_;
  sim::Simulation* simulation_ = nullptr;
  std::vector<Process> processes_;
  boost::intrusive_ptr<simgrid::s4u::Barrier> world_barrier_;
  static MpiModel* instance_;
};

}  // namespace progsim::mpi
