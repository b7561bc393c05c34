#include "coll/Selector.hpp"

#include "coll/Schedule.hpp"
#include "diagnosis/StandardErrors.hpp"
#include "MpiModel.hpp"
#include "sim/CallScope.hpp"
#include "sim/Config.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"

#include <stdexcept>

namespace progsim::mpi::coll {

namespace {

// "MPI_Allreduce algorithm: recursive_doubling (...), ring (...); auto: ..."
std::string meaning(const CollectiveAlgorithms& coll)
{
  std::string text = std::string(coll.procedures) + " algorithm: ";
  for (std::size_t i = 0; i < coll.algorithms.size(); ++i)
    text += std::string(i ? "; " : "") + coll.algorithms[i].name + " (" + coll.algorithms[i].description + ")";
  return text + "; auto: " + coll.auto_rule;
}

std::size_t index_of(const CollectiveAlgorithms& coll, const std::string& name)
{
  for (std::size_t i = 0; i < coll.algorithms.size(); ++i)
    if (name == coll.algorithms[i].name)
      return i;
  // --cfg checked the name against the rows, and auto prefers a row's name.
  throw std::logic_error(std::string(coll.option) + ": no algorithm named " + name);
}

[[noreturn]] void does_not_apply(const CollectiveAlgorithms& coll, const AlgorithmInfo& algorithm,
                                 const std::string& why)
{
  sim::Rank* rank = sim::calling_rank();
  std::string call = rank && rank->current_call() ? rank->current_call() : coll.procedures;
  std::string site = !rank ? "" : rank->trace_position.file ? rank->trace_location()
                                                           : StandardErrors::source_of(rank->call_return_address(), true);
  std::string message = (rank ? "rank " + std::to_string(rank->id()) + ": " : "") + call +
                        (site.empty() ? "" : " at " + site) + ": --cfg " + coll.option + "=" + algorithm.name +
                        " does not apply to this call: " + why +
                        " (progsim measures no other algorithm in its place: choose auto or another one, see "
                        "progsim run --cfg help)";
  if (rank) {
    message += " at " + sim::format_time(rank->clock().now());
    rank->set_state(sim::RankState::Failed);
    rank->end_reason = std::string("--cfg ") + coll.option + "=" + algorithm.name + " does not apply in " + call;
  }
  sim::Simulation::current()->end_run(sim::Outcome::Aborted, message, sim::kExitUsageError);
}

}  // namespace

void register_collective_parameters(sim::Config& config, CollectiveParameters& p)
{
  config.add("coll-sync", p.sync, {"auto", "always", "never"},
             "whether collectives synchronize their members (MPI-4.1 §6.14 lets them or not): auto (as the "
             "protocols imply: eager messages do not wait), always (every internal message waits for its "
             "receiver, e.g. a synchronizing MPI_Bcast), never (the library buffers every internal message)");
  for (const CollectiveAlgorithms* coll : collective_registry()) {
    std::vector<std::string> choices = {"auto"};
    for (const AlgorithmInfo& a : coll->algorithms)
      choices.emplace_back(a.name);
    config.add(coll->option, p.*(coll->forced), choices, meaning(*coll));
  }
}

const CollectiveParameters& collective_parameters()
{
  return MpiModel::instance().parameters().coll;
}

std::size_t choose(const CollectiveAlgorithms& coll, const CallFacts& facts, const Channel& c)
{
  const std::string& forced = collective_parameters().*(coll.forced);
  if (forced != "auto") {
    std::size_t i = index_of(coll, forced);
    const AlgorithmInfo& algorithm = coll.algorithms[i];
    std::string why = algorithm.unusable ? algorithm.unusable(facts) : "";
    if (why.empty())
      return i;
    if (!c.for_library)
      does_not_apply(coll, algorithm, why);
  }
  return index_of(coll, coll.preferred(facts));
}

}  // namespace progsim::mpi::coll
