#include "sim/Report.hpp"

#include "sim/Config.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/MemoryWatch.hpp"

namespace progsim::sim {

namespace {

nlohmann::ordered_json rank_entry(const Simulation& simulation, const Rank& rank)
{
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
  return entry;
}

// `text` (a dump(2)) with `indent` before each line, as when nested deeper:
// JSON strings hold no raw newline, so every '\n' starts a line.
void write_indented(std::ostream& out, const std::string& text, const std::string& indent)
{
  out << indent;
  std::size_t from = 0;
  for (std::size_t nl = text.find('\n'); nl != std::string::npos; nl = text.find('\n', from)) {
    out.write(text.data() + from, static_cast<std::streamsize>(nl + 1 - from));
    out << indent;
    from = nl + 1;
  }
  out.write(text.data() + from, static_cast<std::streamsize>(text.size() - from));
}

}  // namespace

void write_report(std::ostream& out, const Simulation& simulation, const Config& config, bool deterministic)
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

  // The "ranks" array comes last: the rest is dumped without its closing
  // brace, then each entry as the array's element at nesting level 2.
  std::string head = report.dump(2);
  head.resize(head.size() - 2);  // "\n}"
  report = nullptr;
  out << head << ",\n  \"ranks\": [\n";
  for (int r = 0; r < simulation.size(); ++r) {
    if (r > 0)
      out << ",\n";
    write_indented(out, rank_entry(simulation, simulation.rank(r)).dump(2), "    ");
  }
  out << "\n  ]\n}";
}

}  // namespace progsim::sim
