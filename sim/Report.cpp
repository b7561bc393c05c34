#include "sim/Report.hpp"

#include "sim/Config.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/MemoryWatch.hpp"

namespace progsim::sim {

nlohmann::ordered_json build_report(const Simulation& simulation, const Config& config, bool deterministic)
{
  const RunOptions& options = simulation.options();
  const RunResult& result = simulation.result();
  nlohmann::ordered_json report;
  report["progsim_report_version"] = 1;
  report["program"] = options.program;
  report["arguments"] = options.args;
  report["nranks"] = simulation.size();
  report["policy"] = options.policy;
  report["platform"] = options.platform_file;
  report["privatization"] = options.privatize;
  report["deterministic"] = deterministic;
  report["outcome"] = to_string(result.outcome);
  report["exit_status"] = result.exit_status;
  report["message"] = result.message;
  report["simulated_time"] = result.simulated_time;
  report["parameters"] = config.to_json();
  report["memory_watch"] = memory::MemoryWatch::instance().status();
  simulation.model().add_to_report(report);

  nlohmann::ordered_json ranks = nlohmann::ordered_json::array();
  for (int r = 0; r < simulation.size(); ++r) {
    const Rank& rank = simulation.rank(r);
    nlohmann::ordered_json entry;
    entry["rank"] = rank.id();
    entry["host"] = rank.host()->get_name();
    entry["finish_time"] = rank.finish_time >= 0 ? nlohmann::ordered_json(rank.finish_time) : nullptr;
    entry["state"] = to_string(rank.state());
    entry["mpi_calls"] = rank.mpi_calls();
    entry["last_call"] = rank.last_call();
    if (rank.state() == RankState::Blocked)
      entry["blocked_on"] = rank.blocked_on();
    if (!rank.end_reason.empty())
      entry["end_reason"] = rank.end_reason;
    entry["exit_code"] = rank.exit_code;
    simulation.model().add_rank_to_report(rank, entry);
    memory::MemoryWatch::instance().add_rank_to_report(rank.id(), entry);
    ranks.push_back(entry);
  }
  report["ranks"] = ranks;
  return report;
}

}  // namespace progsim::sim
