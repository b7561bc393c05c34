#include "MpiModel.hpp"

#include "progress/PolicyCatalog.hpp"
#include "sim/Config.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Barrier.hpp>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

MpiModel* MpiModel::instance_ = nullptr;

MpiModel::MpiModel(std::string policy) : policy_(std::move(policy))
{
  check_policy_name(policy_);
  instance_ = this;
}

MpiModel::~MpiModel()
{
  instance_ = nullptr;
}

MpiModel& MpiModel::instance()
{
  return *instance_;
}

void MpiModel::register_parameters(sim::Config& config)
{
  config.add("barrier-cost", parameters_.barrier_cost, "s", "extra time of the interim MPI_Barrier");
}

void MpiModel::on_simulation_start(sim::Simulation& simulation)
{
  simulation_ = &simulation;
  processes_.resize(static_cast<size_t>(simulation.size()));
  for (int r = 0; r < simulation.size(); ++r)
    processes_[static_cast<size_t>(r)].world_rank = r;
  world_barrier_ = sg4::Barrier::create(static_cast<unsigned>(simulation.size()));
}

void MpiModel::world_barrier()
{
  world_barrier_->wait();
  if (parameters_.barrier_cost > 0)
    sg4::this_actor::sleep_for(parameters_.barrier_cost);
}

void MpiModel::add_to_report(nlohmann::ordered_json&) const {}

void MpiModel::add_rank_to_report(const sim::Rank&, nlohmann::ordered_json&) const {}

}  // namespace progsim::mpi
