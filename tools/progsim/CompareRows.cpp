#include "progsim/CompareRows.hpp"

#include "progress/PolicyCatalog.hpp"
#include "progress/PolicyReport.hpp"

#include <cmath>
#include <cstdio>
#include <optional>

namespace progsim::cli {

std::string chunk_column_title()
{
  std::string title = "chunks ";
  for (const mpi::ExecutorDescription* e : mpi::executors(mpi::policy_catalog()))
    title += (title.size() > 7 ? "/" : "") + e->label.substr(0, 1);
  return title;
}

Row summarize(const std::string& policy, const nlohmann::json& report, int exit_status)
{
  Row row{policy, {}, {}};
  auto& v = row.values;
  v["policy"] = policy;
  v["outcome"] = report.value("outcome", "error");
  v["exit_status"] = exit_status;
  v["simulated_time"] = report.value("simulated_time", 0.0);
  const mpi::PolicyList& catalog = mpi::policy_catalog();
  const std::vector<const mpi::ReportField*> columns = mpi::compare_columns(catalog);
  const std::vector<const mpi::ExecutorDescription*> executors = mpi::executors(catalog);
  double blocked = 0, communication = 0, hidden = 0;
  long long nonblocking = 0, approximate = 0;
  long long memory_polls = 0;
  long long tests = 0, false_tests = 0;
  // The policies' columns: integers for counts, as in the reports.
  std::vector<long long> counts(columns.size(), 0);
  std::vector<double> times(columns.size(), 0.0);
  std::vector<long long> chunks(executors.size(), 0);
  for (auto& r : report.value("ranks", nlohmann::json::array())) {
    blocked += r.value("blocked_time", 0.0);
    for (std::size_t i = 0; i < columns.size(); ++i) {
      if (columns[i]->unit == mpi::ReportField::Unit::Count)
        counts[i] += r.value(columns[i]->name, 0LL);
      else
        times[i] += r.value(columns[i]->name, 0.0);
    }
    tests += r.value("tests", 0LL);
    false_tests += r.value("false_tests", 0LL);
    memory_polls += r.value("memory_polls", 0LL);
    if (r.contains("overlap")) {
      nonblocking += r["overlap"].value("operations", 0LL);
      communication += r["overlap"].value("communication_time", 0.0);
      hidden += r["overlap"].value("hidden_time", 0.0);
      approximate += r["overlap"].value("approximate_operations", 0LL);
    }
    if (r.contains("chunks"))
      for (std::size_t i = 0; i < executors.size(); ++i)
        chunks[i] += r["chunks"].value(executors[i]->label, 0LL);
  }
  v["blocked_in_mpi"] = blocked;
  v["tests"] = tests;
  v["false_tests"] = false_tests;
  v["memory_polls"] = memory_polls;
  for (std::size_t i = 0; i < columns.size(); ++i)
    v[columns[i]->name] = columns[i]->unit == mpi::ReportField::Unit::Count ? nlohmann::ordered_json(counts[i])
                                                                           : nlohmann::ordered_json(times[i]);
  v["chunks"] = nlohmann::ordered_json::object();
  for (std::size_t i = 0; i < executors.size(); ++i)
    v["chunks"][executors[i]->label] = chunks[i];
  nlohmann::json messages = report.value("messages", nlohmann::json::object());
  v["messages"] = messages.value("count", 0LL);
  v["latency_median"] = messages.contains("latency_median") ? messages["latency_median"] : nlohmann::json();
  v["latency_p99"] = messages.contains("latency_p99") ? messages["latency_p99"] : nlohmann::json();
  // Communication time of the nonblocking operations hidden behind computation
  // (OverlapMeter in mpi_model/progress/); null without any.
  v["nonblocking_operations"] = nonblocking;
  v["overlap"] = communication > 0 ? nlohmann::ordered_json(std::round(hidden / communication * 1e6) / 1e6)
                                   : nlohmann::ordered_json();
  // Only when the meter's bound cut into some operation's time
  // (OverlapMeter::kMaxIntervals): the figure is approximate.
  if (approximate > 0)
    v["overlap_approximate_operations"] = approximate;
  const nlohmann::json delays = report.value("progress_delays", nlohmann::json::array());
  if (!delays.empty())
    v["longest_progress_delay"] = {{"owner", delays[0].value("owner", 0)},
                                   {"chunk", delays[0].value("chunk", "")},
                                   {"delay", delays[0].value("delay", 0.0)},
                                   {"executor", delays[0].value("executor", "")}};
  if (report.contains("deadlock"))
    v["deadlock_class"] = report["deadlock"].value("class", "");
  v["message"] = report.value("message", "");
  return row;
}

namespace {

std::string fmt(const nlohmann::ordered_json& value, const char* format)
{
  if (!value.is_number())
    return "-";
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value.get<double>());
  return buf;
}

}  // namespace

std::string seconds(const nlohmann::ordered_json& value)
{
  if (!value.is_number())
    return "-";
  double s = value.get<double>();
  char buf[64];
  if (s != 0 && s < 1e-3)
    std::snprintf(buf, sizeof buf, "%.3f us", s * 1e6);
  else if (s != 0 && s < 1)
    std::snprintf(buf, sizeof buf, "%.3f ms", s * 1e3);
  else
    std::snprintf(buf, sizeof buf, "%.6f s", s);
  return buf;
}

CompareTable compare_table(const std::vector<Row>& rows)
{
  const std::vector<const mpi::ReportField*> columns = mpi::compare_columns(mpi::policy_catalog());
  CompareTable table;
  auto column = [&](const std::string& title, const std::string& name) {
    table.titles.push_back(title);
    table.columns.push_back(name);
  };
  column("policy", "policy");
  column("outcome", "outcome");
  column("sim. time", "simulated_time");
  column("blocked in MPI", "blocked_in_mpi");
  column("false tests", "false_tests");
  column("mem. polls", "memory_polls");
  for (const mpi::ReportField* f : columns)
    column(f->column, f->name);
  column(chunk_column_title(), "chunks");
  column("latency p50", "latency_median");
  column("latency p99", "latency_p99");
  column("overlap", "overlap");
  auto number = [](const nlohmann::ordered_json& value) -> std::optional<double> {
    if (value.is_number())
      return value.get<double>();
    return std::nullopt;
  };
  for (const Row& row : rows) {
    const auto& v = row.values;
    std::vector<TableCell> line = {{row.policy, std::nullopt},
                                   {v["outcome"].get<std::string>(), std::nullopt},
                                   {seconds(v["simulated_time"]), number(v["simulated_time"])},
                                   {seconds(v["blocked_in_mpi"]), number(v["blocked_in_mpi"])},
                                   {std::to_string(v["false_tests"].get<long long>()), number(v["false_tests"])},
                                   {std::to_string(v["memory_polls"].get<long long>()), number(v["memory_polls"])}};
    for (const mpi::ReportField* f : columns)
      line.push_back({f->unit == mpi::ReportField::Unit::Count ? std::to_string(v[f->name].get<long long>())
                                                               : seconds(v[f->name]),
                      number(v[f->name])});
    std::string chunks;
    long long total_chunks = 0;
    for (const auto& [executor, count] : v["chunks"].items()) {
      chunks += (chunks.empty() ? "" : "/") + std::to_string(count.get<long long>());
      total_chunks += count.get<long long>();
    }
    line.push_back({chunks, static_cast<double>(total_chunks)});
    line.push_back({seconds(v["latency_median"]), number(v["latency_median"])});
    line.push_back({seconds(v["latency_p99"]), number(v["latency_p99"])});
    std::string overlap = fmt(v["overlap"], "%.3f");
    if (v.contains("overlap_approximate_operations"))
      overlap = "~" + overlap;  // measured partly on what the meter's bound left
    line.push_back({overlap, number(v["overlap"])});
    table.rows.push_back(line);
  }
  return table;
}

std::vector<std::string> csv_columns()
{
  std::vector<std::string> names = {"outcome", "simulated_time", "blocked_in_mpi", "tests", "false_tests",
                                    "memory_polls"};
  for (const mpi::ReportField* f : mpi::compare_columns(mpi::policy_catalog()))
    names.push_back(f->name);
  names.insert(names.end(), {"messages", "latency_median", "latency_p99", "overlap", "deadlock_class"});
  return names;
}

std::vector<std::string> csv_cells(const nlohmann::ordered_json& v)
{
  std::vector<std::string> cells = {v["outcome"].get<std::string>(),
                                    fmt(v["simulated_time"], "%.9g"),
                                    fmt(v["blocked_in_mpi"], "%.9g"),
                                    std::to_string(v["tests"].get<long long>()),
                                    std::to_string(v["false_tests"].get<long long>()),
                                    std::to_string(v["memory_polls"].get<long long>())};
  for (const mpi::ReportField* f : mpi::compare_columns(mpi::policy_catalog()))
    cells.push_back(f->unit == mpi::ReportField::Unit::Count ? std::to_string(v[f->name].get<long long>())
                                                             : fmt(v[f->name], "%.9g"));
  cells.insert(cells.end(), {std::to_string(v["messages"].get<long long>()), fmt(v["latency_median"], "%.9g"),
                             fmt(v["latency_p99"], "%.9g"), fmt(v["overlap"], "%.6g"),
                             v.contains("deadlock_class") ? v["deadlock_class"].get<std::string>() : ""});
  return cells;
}

}  // namespace progsim::cli
