#include "progsim/HtmlReport.hpp"

#include "progsim/HtmlAssets.hpp"
#include "progsim/HtmlExplanation.hpp"
#include "progsim/Markup.hpp"
#include "progsim/ReportColors.hpp"
#include "progsim/TimeUnits.hpp"

#include "progress/PolicyReport.hpp"

#include <algorithm>

namespace progsim::cli {

namespace {

const char* const kStates[] = {"user", "mpi", "blocked", "sleeping", "polling"};
const char* const kStateTitles[] = {"user code", "in MPI", "blocked in MPI", "sleeping", "polling"};

// One button of the "zoom to" list: shows [t0, t1], labelled with t0.
std::string zoom_item(const std::string& text, double t0, double t1)
{
  return "<li><button data-t0=\"" + fixed(t0, "%.12g") + "\" data-t1=\"" + fixed(t1, "%.12g") + "\">" +
         escape_markup(format_instant(t0)) + "</button>" + escape_markup(text) + "</li>\n";
}

// Instants worth seeing: the end of a deadlocked run, where a timeline was
// cut, the longest waits, the longest progress delays.
std::string zoom_list(const std::vector<PolicyRun>& runs)
{
  constexpr int kWaitsPerPolicy = 3;
  std::string items;
  for (const PolicyRun& run : runs) {
    if (run.summary.is_null())
      continue;
    int waits = 0;
    for (const auto& mark : run.summary.value("marks", nlohmann::json::array())) {
      std::string kind = mark.value("kind", "");
      double t0 = mark.value("t0", 0.0), t1 = mark.value("t1", 0.0);
      if (kind == "deadlock")
        items += zoom_item(run.policy + ": deadlock, the end of the run", t0, t1);
      else if (kind == "truncated")
        items += zoom_item(run.policy + ": the timeline's event cap was reached", t0, t1);
      else if (kind == "wait" && waits++ < kWaitsPerPolicy)
        items += zoom_item(run.policy + ": rank " + std::to_string(mark.value("rank", 0)) + " blocked " +
                               format_duration(t1 - t0) + " in " + mark.value("call", ""),
                           t0, t1);
    }
    for (const auto& d : run.report.value("progress_delays", nlohmann::json::array()))
      items += zoom_item(run.policy + ": a progress chunk of rank " + std::to_string(d.value("owner", 0)) + " waited " +
                             format_duration(d.value("delay", 0.0)) + " (" + d.value("chunk", "") + ")",
                         d.value("enabled_at", 0.0), d.value("run_at", 0.0));
  }
  if (items.empty())
    return "";
  return "<div id=\"zoom-to\"><h3>Zoom to</h3><ol>\n" + items + "</ol></div>\n";
}

std::string legend_html()
{
  std::string out = "<p class=\"legend\">";
  for (std::size_t s = 0; s < std::size(kStates); ++s)
    out += std::string("<span><i style=\"background:") + state_color(kStates[s]) + "\"></i>" + kStateTitles[s] +
           "</span>";
  for (const mpi::ExecutorDescription* e : mpi::executors(mpi::policy_catalog()))
    out += "<span><i style=\"background:" + e->colour + "\"></i>chunk run by " + escape_markup(e->label) + "</span>";
  return out +
         "<br>A lane's height is shared among the states of its rank(s) in each pixel column. Below the lanes, the "
         "messages posted (log scale). Arrows (a message from its send's start to its receive's completion) and "
         "chunk marks appear once few are in view. Grey: no data, after the run's end (or where the timeline's event "
         "cap stopped the recording); red line: the instant of a deadlock. "
         "Wheel: zoom; drag: pan; double-click: the whole run.</p>\n";
}

std::string timeline_section(const std::vector<PolicyRun>& runs)
{
  std::string out = "<section id=\"timelines\"><h2>Timelines</h2>\n";
  out += "<div class=\"toolbar\"><button id=\"zoom-in\">zoom in</button><button id=\"zoom-out\">zoom out</button>"
         "<button id=\"zoom-all\">whole run</button><span id=\"view-text\"></span></div>\n";
  out += zoom_list(runs) + legend_html();
  out += "<svg id=\"time-axis\" height=\"24\" xmlns=\"http://www.w3.org/2000/svg\"></svg>\n";
  out += "<svg width=\"0\" height=\"0\" style=\"position:absolute\"><defs><marker id=\"arrowhead\" "
         "viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\"><path "
         "d=\"M0,0 L10,5 L0,10 z\" fill=\"#222\"/></marker></defs></svg>\n";
  for (const PolicyRun& run : runs) {
    std::string outcome = run.report.value("outcome", "error");
    std::string note;
    if (run.summary.value("truncated", false))
      note = " (timeline cut at " + format_duration(run.summary.value("truncated_at", 0.0)) + ": event cap)";
    out += "<div class=\"policy-timeline\" data-policy=\"" + escape_markup(run.policy) + "\" data-outcome=\"" +
           escape_markup(outcome) + "\" data-end=\"" + fixed(run.summary.value("end", 0.0), "%.12g") + "\"><h3>" +
           escape_markup(run.policy) + ": " + escape_markup(outcome) + " at " +
           format_duration(run.report.value("simulated_time", 0.0)) + escape_markup(note) +
           "</h3><div class=\"lane-box\"><canvas></canvas><svg class=\"overlay\" "
           "xmlns=\"http://www.w3.org/2000/svg\"></svg></div></div>\n";
  }
  return out + "<div id=\"render-info\"></div></section>\n";
}

std::string figures_section(const std::vector<Figure>& figures)
{
  std::string out = "<section id=\"figures\"><h2>Figures</h2>\n<p>The numbers behind each figure: "
                    "<code>progsim compare --figures DIR</code> writes each as DIR/NAME.svg and DIR/NAME.csv.</p>\n";
  for (const Figure& f : figures) {
    std::string id = "figure-" + f.name;
    std::replace(id.begin(), id.end(), '.', '-');
    out += "<figure id=\"" + escape_markup(id) + "\" data-figure=\"" + escape_markup(f.name) + "\">" + f.svg +
           "<figcaption>" + escape_markup(f.caption) + " <button data-export=\"" + escape_markup(id) +
           "\" data-file=\"" + escape_markup(f.name) + ".svg\">Download SVG</button></figcaption></figure>\n";
  }
  return out + "</section>\n";
}

std::string output_section(const std::vector<PolicyRun>& runs)
{
  std::string out = "<section id=\"output\"><h2>Program output</h2>\n";
  for (const PolicyRun& run : runs) {
    // Collapsed: the program's own figures (an OSU-style overlap, say) beside the simulator's.
    std::size_t lines = static_cast<std::size_t>(std::count(run.output.begin(), run.output.end(), '\n'));
    if (!run.output.empty() && run.output.back() != '\n')
      ++lines;
    out += "<details class=\"output\" data-policy=\"" + escape_markup(run.policy) + "\"><summary>" +
           escape_markup(run.policy) + ": program output (stdout, " + std::to_string(lines) + " lines)</summary><pre>" +
           escape_markup(run.output) + "</pre></details>\n";
  }
  return out + "</section>\n";
}

// The timelines' data for timeline.js, safe inside <script>.
std::string timeline_data(const std::vector<PolicyRun>& runs)
{
  nlohmann::ordered_json colors = nlohmann::ordered_json::object();
  for (const char* state : kStates)
    colors[state] = state_color(state);
  for (const mpi::ExecutorDescription* e : mpi::executors(mpi::policy_catalog()))
    colors["chunk:" + e->label] = e->colour;
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const PolicyRun& run : runs)
    list.push_back({{"policy", run.policy}, {"summary", run.summary}});
  std::string text = nlohmann::ordered_json{{"colors", colors}, {"runs", list}}.dump();
  // "</script>" inside the data would end the element.
  std::string out;
  out.reserve(text.size());
  for (std::size_t k = 0; k < text.size(); ++k) {
    if (text[k] == '<' && k + 1 < text.size() && text[k + 1] == '/')
      out += "<\\";
    else
      out += text[k];
  }
  return out;
}

std::string script(std::string_view name)
{
  return "<script>\n" + std::string(html_asset(name)) + "</script>\n";
}

}  // namespace

std::string table_html(const CompareTable& table)
{
  std::string out = "<table class=\"sortable\" id=\"compare-table\">\n<thead><tr>";
  for (std::size_t c = 0; c < table.titles.size(); ++c)
    out += "<th data-column=\"" + escape_markup(table.columns[c]) + "\" aria-sort=\"none\">" +
           escape_markup(table.titles[c]) + "</th>";
  out += "</tr></thead>\n<tbody>\n";
  for (const auto& row : table.rows) {
    out += "<tr>";
    for (const TableCell& cell : row)
      out += cell.number ? "<td data-sort=\"" + fixed(*cell.number, "%.12g") + "\">" + escape_markup(cell.text) + "</td>"
                         : "<td class=\"text\">" + escape_markup(cell.text) + "</td>";
    out += "</tr>\n";
  }
  return out + "</tbody></table>\n";
}

std::string html_report(const std::string& program, const std::vector<PolicyRun>& runs, const CompareTable& table,
                        const std::vector<Figure>& figures)
{
  // The program's file name only: the page must not depend on where it was built.
  const std::string name = escape_markup(program.substr(program.rfind('/') + 1));
  std::vector<PolicyRun> drawn;
  for (const PolicyRun& run : runs)
    if (run.summary.is_object())
      drawn.push_back(run);
  int nranks = runs.empty() ? 0 : runs.front().report.value("nranks", 0);
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>progsim compare: " + name +
                    "</title>\n<style>\n" + std::string(html_asset("report.css")) + "</style></head>\n<body>\n";
  out += "<h1>progsim compare: " + name + "</h1>\n<p>" + std::to_string(nranks) + " ranks under " +
         std::to_string(runs.size()) + " progress policies; times are simulated.</p>\n";
  out += "<section id=\"summary\"><h2>Comparison</h2>\n" + table_html(table) +
         "<p class=\"notes\">Click a column's title to sort by it. <code>progsim compare --help</code> says what "
         "each column measures.</p></section>\n";
  if (!drawn.empty())
    out += timeline_section(drawn);
  out += "<section id=\"explanations\"><h2>What happened</h2>\n";
  for (const PolicyRun& run : runs)
    out += html_explanation(run, program);
  out += "</section>\n" + figures_section(figures) + output_section(runs);
  if (!drawn.empty())
    out += "<script type=\"application/json\" id=\"timeline-data\">" + timeline_data(drawn) + "</script>\n" +
           script("timeline.js");
  out += script("tables.js") + script("export.js") + script("loaded.js");
  return out + "</body></html>\n";
}

}  // namespace progsim::cli
