#include "progsim/SweepResults.hpp"

#include "progsim/CompareRows.hpp"
#include "progsim/Figures.hpp"
#include "progsim/HtmlAssets.hpp"
#include "progsim/HtmlReport.hpp"
#include "progsim/Markup.hpp"
#include "progsim/ReportedRun.hpp"
#include "progsim/SweepPoint.hpp"

#include "sim/Diagnostics.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <sys/stat.h>

namespace progsim::cli {

namespace {

struct PointResult {
  const SweepPoint* point;
  bool complete;
  Row row;
  PolicyRun run;
};

nlohmann::json read_json(const std::string& path)
{
  nlohmann::json json = nlohmann::json::parse(file_text(path), nullptr, false);
  return json.is_discarded() ? nlohmann::json() : json;
}

PointResult read_point(const SweepSpec& spec, const SweepPoint& point)
{
  std::string dir = point_dir(spec, point);
  if (!point_complete(spec, point)) {
    Row row = summarize(point.policy, nlohmann::json::object(), 0);
    row.values["outcome"] = "not run";
    row.values["message"] = "no record yet: 'progsim sweep' runs it";
    return {&point, false, row, {}};
  }
  nlohmann::json record = read_json(dir + "/point.json");
  nlohmann::json report = read_json(dir + "/run.json");
  if (!report.is_object())
    report = nlohmann::json::object({{"outcome", "error"}, {"message", "no report (see the point's run.log)"}});
  Row row = summarize(point.policy, report, record.value("exit_status", 0));
  row.output = file_text(dir + "/run.out");
  nlohmann::json summary = read_json(dir + "/timeline.json");
  return {&point, true, row, PolicyRun{point.policy, report, summary.is_object() ? summary : nlohmann::json(), row.output}};
}

// The parameters of a point as result columns: "cfg" spread into one column per key.
nlohmann::ordered_json parameter_values(const SweepPoint& point)
{
  nlohmann::ordered_json v;
  v["id"] = point.id;
  for (const auto& [key, value] : point.parameters.items())
    if (key != "cfg" && key != "options")
      v[key] = value;
  for (const auto& [key, value] : point.cfg)
    v[key] = value;
  return v;
}

std::string csv_cell(const std::string& text)
{
  if (text.find_first_of(",\"\n") == std::string::npos)
    return text;
  std::string out = "\"";
  for (char c : text)
    out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string value_text(const nlohmann::ordered_json& value)
{
  if (value.is_string())
    return value.get<std::string>();
  if (value.is_array()) {
    std::string out;
    for (const auto& item : value)
      out += (out.empty() ? "" : " ") + value_text(item);
    return out;
  }
  return value.dump();
}

std::string results_csv(const std::vector<PointResult>& results)
{
  std::string out;
  if (results.empty())
    return out;
  nlohmann::ordered_json header = parameter_values(*results.front().point);
  for (const auto& [key, value] : header.items())
    out += (out.empty() ? "" : ",") + csv_cell(key);
  for (const std::string& column : csv_columns())
    out += "," + column;
  out += "\n";
  for (const PointResult& r : results) {
    std::string line;
    const nlohmann::ordered_json parameters = parameter_values(*r.point);  // alive through the loop
    for (const auto& [key, value] : parameters.items())
      line += (line.empty() ? "" : ",") + csv_cell(value_text(value));
    for (const std::string& cell : csv_cells(r.row.values))
      line += "," + csv_cell(cell);
    out += line + "\n";
  }
  return out;
}

std::string results_json(const std::vector<PointResult>& results)
{
  nlohmann::ordered_json rows = nlohmann::ordered_json::array();
  for (const PointResult& r : results) {
    nlohmann::ordered_json row = {{"id", r.point->id}};
    for (const auto& [key, value] : r.point->parameters.items())
      row[key] = value;
    for (const auto& [key, value] : r.row.values.items())
      if (key != "policy")
        row[key] = value;
    rows.push_back(row);
  }
  return rows.dump(2) + "\n";
}

// The comparison a point belongs to: its parameters but the policy.
std::string group_of(const SweepPoint& point)
{
  nlohmann::ordered_json key = point.parameters;
  key.erase("policy");
  return key.dump();
}

std::string group_title(const SweepSpec& spec, const SweepPoint& point)
{
  std::string title = point.parameters["program"].get<std::string>() + ", " + std::to_string(point.ranks) +
                      " ranks, platform " + spec.platforms[point.platform];
  for (const auto& [key, value] : point.cfg)
    title += ", " + key + "=" + value;
  return title;
}

// Every comparison's page under OUTPUT/html/; the index's list of links.
std::string write_group_pages(const SweepSpec& spec, const std::vector<PointResult>& results)
{
  std::map<std::string, std::string> page_of;  // group -> file name
  std::vector<std::string> order;
  for (const PointResult& r : results) {
    std::string group = group_of(*r.point);
    if (page_of.count(group))
      continue;
    // The id without its policy: NAME-nR-HASH of the group.
    std::string id = r.point->id;
    page_of[group] = r.point->parameters["program"].get<std::string>() + "-n" + std::to_string(r.point->ranks) + "-" +
                     id.substr(id.rfind('-') + 1) + ".html";
    order.push_back(group);
  }
  ::mkdir((spec.output + "/html").c_str(), 0777);
  std::string links = "<section id=\"comparisons\"><h2>Comparisons</h2><ul>\n";
  for (const std::string& group : order) {
    std::vector<Row> rows;
    std::vector<PolicyRun> runs;
    const SweepPoint* first = nullptr;
    for (const PointResult& r : results) {
      if (group_of(*r.point) != group)
        continue;
      first = first ? first : r.point;
      if (!r.complete)
        continue;
      rows.push_back(r.row);
      runs.push_back(r.run);
    }
    std::string title = group_title(spec, *first);
    if (runs.empty()) {
      links += "<li>" + escape_markup(title) + ": not run yet</li>\n";
      continue;
    }
    const std::string& file = page_of[group];
    write_file_atomically(spec.output + "/html/" + file,
                          html_report(runs.front().report.value("program", ""), runs, compare_table(rows),
                                      comparison_figures(runs)));
    links += "<li><a href=\"html/" + escape_markup(file) + "\">" + escape_markup(title) + "</a></li>\n";
  }
  return links + "</ul></section>\n";
}

std::string results_html(const SweepSpec& spec, const std::vector<PointResult>& results, const std::string& links,
                         std::size_t missing)
{
  std::vector<Row> rows;
  for (const PointResult& r : results)
    rows.push_back(r.row);
  CompareTable table = compare_table(rows);
  // The parameters before compare's columns (policy is compare's first).
  std::vector<std::string> names;
  const nlohmann::ordered_json first = results.empty() ? nlohmann::ordered_json::object()
                                                      : parameter_values(*results.front().point);
  for (const auto& [key, value] : first.items())
    if (key != "id" && key != "policy")
      names.push_back(key);
  table.titles.insert(table.titles.begin(), names.begin(), names.end());
  table.columns.insert(table.columns.begin(), names.begin(), names.end());
  for (std::size_t k = 0; k < results.size(); ++k) {
    nlohmann::ordered_json v = parameter_values(*results[k].point);
    std::vector<TableCell> cells;
    for (const std::string& name : names)
      cells.push_back({value_text(v[name]), v[name].is_number() ? std::optional<double>(v[name].get<double>())
                                                                : std::nullopt});
    table.rows[k].insert(table.rows[k].begin(), cells.begin(), cells.end());
  }
  std::string name = spec.file.substr(spec.file.rfind('/') + 1);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>progsim sweep: " +
                    escape_markup(name) + "</title>\n<style>\n" + std::string(html_asset("report.css")) +
                    "</style></head>\n<body>\n<h1>progsim sweep: " + escape_markup(name) + "</h1>\n<p>" +
                    std::to_string(results.size()) + " points" +
                    (missing ? ", " + std::to_string(missing) + " not run yet" : std::string()) +
                    "; times are simulated. Click a column's title to sort by it; <code>progsim compare "
                    "--help</code> says what each column measures.</p>\n<section id=\"summary\"><h2>Results</h2>\n" +
                    table_html(table) + "</section>\n" + links;
  return out + "<script>\n" + std::string(html_asset("tables.js")) + "</script>\n</body></html>\n";
}

}  // namespace

std::size_t gather_results(const SweepSpec& spec)
{
  std::vector<PointResult> results;
  std::size_t missing = 0;
  for (const SweepPoint& point : spec.points) {
    results.push_back(read_point(spec, point));
    missing += results.back().complete ? 0 : 1;
  }
  ::mkdir(spec.output.c_str(), 0777);
  write_file_atomically(spec.output + "/results.csv", results_csv(results));
  write_file_atomically(spec.output + "/results.json", results_json(results));
  std::string links = write_group_pages(spec, results);
  write_file_atomically(spec.output + "/results.html", results_html(spec, results, links, missing));
  return missing;
}

}  // namespace progsim::cli
