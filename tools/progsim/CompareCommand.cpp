// progsim compare: the same program under several progress policies, one
// table. Each policy runs as its own `progsim run` process (SimGrid keeps
// global state, so one simulation per process), and the table is built from
// their JSON reports, so it is as deterministic as the runs themselves.

#include "progsim/Commands.hpp"
#include "progsim/CompareRows.hpp"
#include "progsim/Figures.hpp"
#include "progsim/HtmlReport.hpp"
#include "progsim/OutputPaths.hpp"
#include "progsim/ReportedRun.hpp"

#include "progress/PolicyCatalog.hpp"
#include "progress/PolicyReport.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Outcome.hpp"
#include "sim/TemporaryDirectory.hpp"

#include <nlohmann/json.hpp>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

namespace progsim::cli {

namespace {

// "  title [name]" and its meaning from column 31, wrapped as the rest of
// compare's help.
std::string column_help(const std::string& column, const std::string& meaning)
{
  constexpr std::size_t kIndent = 30, kWidth = 85;
  std::string out = "  " + column;
  out += std::string(out.size() + 2 <= kIndent ? kIndent - out.size() : 2, ' ');
  std::size_t line_start = 0;
  std::stringstream words(meaning);
  std::string word;
  bool first = true;
  while (words >> word) {
    if (!first && out.size() - line_start + 1 + word.size() > kWidth) {
      out += "\n";
      line_start = out.size();
      out += std::string(kIndent, ' ');
    } else if (!first) {
      out += " ";
    }
    out += word;
    first = false;
  }
  return out + "\n";
}

// The columns the catalogue's policies add, and who runs chunks.
std::string policy_columns_help()
{
  const mpi::PolicyList& catalog = mpi::policy_catalog();
  std::string out;
  for (const mpi::ReportField* f : mpi::compare_columns(catalog))
    out += column_help(f->column + " [" + f->name + "]", f->column_help);
  std::vector<const mpi::ExecutorDescription*> executors = mpi::executors(catalog);
  std::string by;
  for (std::size_t i = 0; i < executors.size(); ++i)
    by += (i == 0 ? "" : i + 1 == executors.size() ? ", or " : ", ") + executors[i]->runs_chunks;
  return out + column_help(chunk_column_title() + " [chunks]",
                           "progress chunks (protocol steps that run after the call that started them) run " + by);
}

void print_compare_help()
{
  std::printf(
      "Usage: progsim compare [compare options] [run options] PROGRAM [ARGS...]\n"
      "\n"
      "Runs PROGRAM once per progress policy and prints one table: outcome,\n"
      "simulated time, time blocked in MPI, polling waste and message latency.\n"
      "\n"
      "Compare options:\n"
      "  --policies LIST     comma-separated policies (default %s)\n"
      "  --json              print the table as JSON\n"
      "  --csv               print the table as CSV\n"
      "  --reports DIR       keep each run's JSON report in DIR/POLICY.json\n"
      "  --html FILE         also write one self-contained HTML page (nothing fetched): the\n"
      "                      table (sortable); per policy, a zoomable timeline on one shared\n"
      "                      time axis (states per rank or group of ranks, messages, progress\n"
      "                      chunks by executor; bounded in size at any scale); a 'zoom to'\n"
      "                      list (deadlock, longest waits, progress delays); each run's\n"
      "                      explanation with its source lines; the figures; the output\n"
      "  --figures DIR       also write the figures to DIR as NAME.svg with their numbers\n"
      "                      in NAME.csv: time_by_state.POLICY (per rank: computing, MPI,\n"
      "                      progress chunks, blocked, polling, sleeping), latency_cdf,\n"
      "                      overlap_per_operation\n"
      "  --output-lines N    after the table, show at most N lines of each policy's\n"
      "                      program output (its stdout), indented; an output equal to\n"
      "                      an earlier policy's is named, not repeated (default 20; 0:\n"
      "                      none). The JSON gives it whole as [program_output], the\n"
      "                      HTML page as a collapsed block per policy\n"
      "  -h, --help          this text\n"
      "Run options are those of 'progsim run' (-n, --platform, --cfg, ...).\n"
      "\n"
      "Columns (JSON and CSV use the names in brackets; times are simulated seconds):\n"
      "  policy                      the progress policy of the run\n"
      "  outcome [outcome]           completed, deadlock, stuck, erroneous, aborted, crashed\n"
      "  sim. time [simulated_time]  when the run ended\n"
      "  blocked in MPI [blocked_in_mpi]  seconds ranks spent blocked inside MPI calls,\n"
      "                              summed over the ranks\n"
      "  false tests [false_tests]   test calls (MPI_Test*, MPI_Iprobe, ...) that found\n"
      "                              nothing, summed over the ranks ([tests]: all of them)\n"
      "  mem. polls [memory_polls]   reads of watched memory by busy-wait loops\n"
      "%s"
      "  latency p50/p99 [latency_median, latency_p99]  message latency, from the send's\n"
      "                              start to the receive's completion ([messages]: count)\n"
      "  overlap [overlap]           the share of the nonblocking operations' communication\n"
      "                              time hidden behind the ranks' computation, from 0 to 1\n"
      "                              ('-'/null: no nonblocking operation). An operation's\n"
      "                              communication time runs from its start to its\n"
      "                              completion, less the time it sat still because a\n"
      "                              progress chunk of its rank (or of a peer, for one of\n"
      "                              its messages) waited for an executor; the part the\n"
      "                              rank spent inside MPI calls is exposed, the rest\n"
      "                              hidden. ideal progress gives the program's upper\n"
      "                              bound; an operation waited for at once hides nothing.\n"
      "                              (JSON [nonblocking_operations]: how many were measured)\n"
      "                              ~0.250: some operations were measured on partial\n"
      "                              records (a request held across ~1,000,000 calls;\n"
      "                              JSON [overlap_approximate_operations] counts them)\n"
      "JSON and CSV also give [deadlock_class]; JSON the run's [exit_status], its\n"
      "[message], its [longest_progress_delay] and the program's stdout [program_output].\n"
      "A progress line is shown on a terminal (stderr) while the runs are going.\n"
      "\n"
      "Exit status: 0 when every policy's run completed; otherwise the exit status of\n"
      "the first policy's run (in --policies order) that did not: 3 deadlock, 4 stuck,\n"
      "5 erroneous, 1 or MPI_Abort's code aborted, 128+signal crashed (1 when it left\n"
      "no report); 2 for a usage or input error. So compare can gate CI.\n",
      mpi::policy_names(mpi::policy_catalog(), ",").c_str(), policy_columns_help().c_str());
}

int parse_output_lines(const std::string& text)
{
  char* end = nullptr;
  long n = std::strtol(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || n < 0 || n > 1000000)
    throw sim::InputError{"--output-lines " + text + ": expected a number of lines from 0 to 1000000"};
  return static_cast<int>(n);
}

std::string table_text(const std::vector<Row>& rows)
{
  CompareTable table = compare_table(rows);
  const std::vector<std::string>& header = table.titles;
  std::vector<std::vector<std::string>> cells = {header};
  for (const auto& row : table.rows) {
    std::vector<std::string> line;
    for (const TableCell& cell : row)
      line.push_back(cell.text);
    cells.push_back(line);
  }
  std::vector<size_t> width(header.size(), 0);
  for (auto& line : cells)
    for (size_t i = 0; i < line.size(); ++i)
      width[i] = std::max(width[i], line[i].size());
  std::string out;
  for (size_t l = 0; l < cells.size(); ++l) {
    for (size_t i = 0; i < cells[l].size(); ++i)
      out += cells[l][i] + std::string(width[i] - cells[l][i].size() + 2, ' ');
    while (!out.empty() && out.back() == ' ')
      out.pop_back();
    out += "\n";
  }
  // For runs that did not complete: the first line of their message and the
  // deadlock class ('progsim run' with that policy shows the whole report).
  for (const Row& row : rows) {
    if (row.values["outcome"] == "completed") {
      // A late completion: the chunk that waited longest for its executor.
      if (row.values.contains("longest_progress_delay")) {
        const auto& d = row.values["longest_progress_delay"];
        out += "\n" + row.policy + ": a progress chunk of rank " + std::to_string(d["owner"].get<int>()) +
               " waited " + seconds(d["delay"]) + " for its executor (" + d["executor"].get<std::string>() + "): " +
               d["chunk"].get<std::string>();
        if (d["executor"] == "rank")
          out += "\n  rank " + std::to_string(d["owner"].get<int>()) +
                 " was outside MPI meanwhile: avoiding this wait needs strong progress (a progress thread or NIC "
                 "offload runs the chunk at once; MPI-4.1 §2.9)";
        out += "\n";
      }
      continue;
    }
    std::string message = row.values["message"].get<std::string>();
    out += "\n" + row.policy + ": " + message.substr(0, message.find('\n'));
    if (auto cls = message.find("\n  class: "); cls != std::string::npos)
      out += "\n  " + message.substr(cls + 3, message.find('\n', cls + 1) - cls - 3);
    out += "\n";
  }
  return out;
}

std::vector<std::string> lines_of(const std::string& text)
{
  std::vector<std::string> lines;
  std::stringstream in(text);
  std::string line;
  while (std::getline(in, line))
    lines.push_back(line);
  return lines;
}

// Each policy's program output after the table, indented, at most
// `max_lines` lines each; an output equal to an earlier policy's is named,
// not repeated. Empty when max_lines is 0.
std::string program_output_text(const std::vector<Row>& rows, int max_lines)
{
  if (max_lines <= 0)
    return "";
  std::string out;
  for (size_t k = 0; k < rows.size(); ++k) {
    const Row& row = rows[k];
    std::vector<std::string> lines = lines_of(row.output);
    out += "\nprogram output of " + row.policy;
    if (lines.empty()) {
      out += ": none\n";
      continue;
    }
    size_t same = 0;
    while (same < k && rows[same].output != row.output)
      ++same;
    if (same < k) {
      out += ": the same as " + rows[same].policy + "'s\n";
      continue;
    }
    out += " (stdout, " + std::to_string(lines.size()) + " lines):\n";
    for (size_t i = 0; i < lines.size() && i < static_cast<size_t>(max_lines); ++i)
      out += "    " + lines[i] + "\n";
    if (lines.size() > static_cast<size_t>(max_lines))
      out += "    ... " + std::to_string(lines.size() - static_cast<size_t>(max_lines)) +
             " more lines (--output-lines N shows more; 'progsim run --progress " + row.policy + "' shows all)\n";
  }
  return out;
}

void print_csv(const std::vector<Row>& rows)
{
  std::string out = "policy";
  for (const std::string& column : csv_columns())
    out += "," + column;
  out += "\n";
  for (const Row& row : rows) {
    out += row.policy;
    for (const std::string& cell : csv_cells(row.values))
      out += "," + cell;
    out += "\n";
  }
  std::fputs(out.c_str(), stdout);
}

// 0 when every run completed, else the status of the first that did not.
int exit_status(const std::vector<Row>& rows)
{
  for (const Row& row : rows) {
    if (row.values["outcome"] == "completed")
      continue;
    int status = row.values["exit_status"].get<int>();
    return status != 0 ? status : 1;
  }
  return 0;
}

}  // namespace

int compare_command(int argc, char** argv)
{
  try {
    std::vector<std::string> policies = catalogue_policy_names();
    std::string format = "table", reports_dir, html_file, figures_dir;
    int output_lines = 20;
    std::vector<std::string> run_args;
    for (int i = 1; i < argc; ++i) {
      std::string arg = argv[i];
      if (arg == "-h" || arg == "--help") {
        print_compare_help();
        return 0;
      }
      if (policy_run_option(argc, argv, i, policies, "compare"))
        continue;
      if (arg == "--json")
        format = "json";
      else if (arg == "--csv")
        format = "csv";
      else if (arg == "--reports" && i + 1 < argc)
        reports_dir = argv[++i];
      else if (arg == "--html" && i + 1 < argc)
        html_file = argv[++i];
      else if (arg == "--figures" && i + 1 < argc)
        figures_dir = argv[++i];
      else if (arg == "--output-lines" && i + 1 < argc)
        output_lines = parse_output_lines(argv[++i]);
      else
        run_args.push_back(arg);
    }
    check_policy_run(policies, run_args, "compare");
    if (!html_file.empty())
      check_writable_file("--html", html_file);
    if (!figures_dir.empty())
      ::mkdir(figures_dir.c_str(), 0777);  // its parent must exist
    if (!figures_dir.empty() && ::access(figures_dir.c_str(), W_OK) != 0)
      throw sim::InputError{"--figures " + figures_dir + ": not a writable directory"};
    const bool drawing = !html_file.empty() || !figures_dir.empty();

    std::string dir = reports_dir;
    bool temporary = dir.empty();
    std::unique_ptr<sim::TemporaryDirectory> temporary_dir;
    if (temporary) {
      temporary_dir = std::make_unique<sim::TemporaryDirectory>("progsim-compare");
      dir = temporary_dir->path();
    } else if (::access(dir.c_str(), W_OK) != 0) {
      throw sim::InputError{reports_dir + ": not a writable directory"};
    }

    bool tty = ::isatty(2);
    std::vector<Row> rows;
    std::vector<PolicyRun> runs;
    for (size_t k = 0; k < policies.size(); ++k) {
      const std::string& policy = policies[k];
      if (tty)
        std::fprintf(stderr, "\r[%zu/%zu] running %-8s", k + 1, policies.size(), policy.c_str());
      std::string timeline = drawing ? dir + "/" + policy + ".summary.json" : "";
      std::vector<std::string> options = {"--progress", policy};
      if (drawing)
        options.insert(options.end(), {"--timeline", timeline, "--timeline-format", "summary"});
      ReportedRun run = run_with_report(dir, policy, options, run_args);
      if (run.exit_status == sim::kExitUsageError) {
        if (tty)
          std::fputs("\n", stderr);
        std::cerr << file_text(run.log_file);
        return sim::kExitUsageError;
      }
      const nlohmann::json& parsed = run.report;
      rows.push_back(summarize(policy, parsed, run.exit_status));
      rows.back().output = file_text(run.output_file);
      rows.back().values["program_output"] = rows.back().output;
      if (drawing) {
        std::ifstream summary_in(timeline);
        nlohmann::json summary = summary_in ? nlohmann::json::parse(summary_in, nullptr, false) : nlohmann::json();
        runs.push_back(PolicyRun{policy, parsed, summary.is_object() ? summary : nlohmann::json(), rows.back().output});
      }
      if (temporary) {
        ::unlink(run.report_file.c_str());
        ::unlink(run.log_file.c_str());
        ::unlink(run.output_file.c_str());
        if (!timeline.empty())
          ::unlink(timeline.c_str());
      }
    }
    if (tty)
      std::fputs("\r\033[K", stderr);
    temporary_dir.reset();

    if (format == "json") {
      nlohmann::ordered_json out = nlohmann::ordered_json::array();
      for (auto& row : rows)
        out.push_back(row.values);
      std::printf("%s\n", out.dump(2).c_str());
    } else if (format == "csv") {
      print_csv(rows);
    } else {
      std::fputs((table_text(rows) + program_output_text(rows, output_lines)).c_str(), stdout);
    }
    if (drawing) {
      std::vector<Figure> figures = comparison_figures(runs);
      if (!figures_dir.empty() && !write_figures(figures, figures_dir))
        throw sim::InputError{figures_dir + ": cannot write the figures"};
      if (!html_file.empty()) {
        std::ofstream html(html_file);
        html << html_report(runs.empty() ? "" : runs.front().report.value("program", ""), runs, compare_table(rows),
                            figures);
        if (!html)
          throw sim::InputError{html_file + ": cannot write the HTML report"};
      }
    }
    return exit_status(rows);
  } catch (const sim::InputError& e) {
    std::fprintf(stderr, "progsim: error: %s\n", e.message.c_str());
    return sim::kExitUsageError;
  }
}

}  // namespace progsim::cli
