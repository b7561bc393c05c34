#include "progsim/HtmlReport.hpp"

#include "progress/PolicyReport.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>

namespace progsim::cli {

namespace {

constexpr double kLeft = 70;    // px before the time axis (rank labels)
constexpr double kWidth = 1000; // px of the time axis
constexpr double kRow = 28;     // px per rank
constexpr double kTop = 24;     // px above the first rank (axis labels)

std::string escape(const std::string& text)
{
  std::string out;
  for (char c : text) {
    switch (c) {
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '&': out += "&amp;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

std::string num(double value, const char* format = "%.2f")
{
  char buf[64];
  std::snprintf(buf, sizeof buf, format, value);
  return buf;
}

// Simulated seconds as written in data attributes: exact enough to assert on.
std::string sec(double seconds)
{
  return num(seconds, "%.9f");
}

const char* color_of(const std::string& kind)
{
  if (kind == "user") return "#d9d9d9";
  if (kind == "mpi") return "#4a7bd0";
  if (kind == "blocked") return "#d62728";
  if (kind == "sleeping") return "#f2c14e";
  if (kind == "polling") return "#ff7f0e";
  return "#999999";
}

// The colour the executor's policy gave its chunks.
const char* executor_color(const std::string& executor)
{
  for (const mpi::ExecutorDescription* e : mpi::executors(mpi::policy_catalog()))
    if (e->label == executor)
      return e->colour.c_str();
  return "#7f7f7f";
}

double end_of(const nlohmann::json& timeline)
{
  return timeline.contains("otherData") ? timeline["otherData"].value("end_time", 0.0) : 0.0;
}

// The axis: "nice" tick spacing for [0, end].
std::string axis(double end, int ranks)
{
  double raw = end / 8;
  double magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  double step = magnitude;
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (magnitude * m >= raw) {
      step = magnitude * m;
      break;
    }
  std::string out;
  double bottom = kTop + kRow * ranks;
  for (int i = 0; i * step <= end * 1.0000001; ++i) {
    double t = i * step;
    double x = kLeft + t / end * kWidth;
    out += "<line class=\"tick\" x1=\"" + num(x) + "\" y1=\"" + num(kTop - 4) + "\" x2=\"" + num(x) + "\" y2=\"" +
           num(bottom) + "\"/>";
    out += "<text x=\"" + num(x) + "\" y=\"" + num(kTop - 8) + "\" text-anchor=\"middle\">" +
           num(t, "%g") + " s</text>";
  }
  return out;
}

std::string svg_of(const PolicyRun& run, double end)
{
  int ranks = run.report.value("nranks", 0);
  double height = kTop + kRow * ranks + 8;
  auto x_of = [&](double seconds) { return kLeft + seconds / end * kWidth; };
  auto y_of = [&](int rank) { return kTop + kRow * rank; };
  std::string out = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + num(kLeft + kWidth + 20) +
                    "\" height=\"" + num(height) + "\" data-policy=\"" + escape(run.policy) + "\">";
  out += "<defs><marker id=\"arrow-" + escape(run.policy) +
         "\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" orient=\"auto\">"
         "<path d=\"M0,0 L10,5 L0,10 z\" fill=\"#333\"/></marker></defs>";
  out += axis(end, ranks);
  for (int r = 0; r < ranks; ++r)
    out += "<text x=\"4\" y=\"" + num(y_of(r) + kRow / 2 + 4) + "\">rank " + std::to_string(r) + "</text>";
  std::map<long long, std::pair<int, double>> flow_start;
  std::string arrows, chunks;
  for (const auto& e : run.timeline.value("traceEvents", nlohmann::json::array())) {
    std::string ph = e.value("ph", "");
    int rank = e.value("tid", 0);
    double t = e.value("ts", 0.0) / 1e6;
    if (ph == "X") {
      double t_end = t + e.value("dur", 0.0) / 1e6;
      std::string kind = e.value("cat", "");
      std::string name = e.value("name", "");
      double x = x_of(t), w = std::max(x_of(t_end) - x, 0.5);
      double inset = kind == "user" ? 9 : kind == "mpi" ? 5 : 3;
      out += "<rect class=\"interval\" data-rank=\"" + std::to_string(rank) + "\" data-kind=\"" + escape(kind) +
             "\" data-start=\"" + sec(t) + "\" data-end=\"" + sec(t_end) + "\" x=\"" + num(x) + "\" y=\"" +
             num(y_of(rank) + inset) + "\" width=\"" + num(w) + "\" height=\"" + num(kRow - 2 * inset) +
             "\" fill=\"" + color_of(kind) + "\"><title>rank " + std::to_string(rank) + ": " + escape(kind) + " " +
             escape(name) + ", " + sec(t) + " s to " + sec(t_end) + " s</title></rect>";
    } else if (ph == "i") {
      std::string executor = e.contains("args") ? e["args"].value("executor", "") : "";
      double x = x_of(t), y = y_of(rank) + 2;
      chunks += "<path class=\"chunk\" data-rank=\"" + std::to_string(rank) + "\" data-executor=\"" +
                escape(executor) + "\" data-time=\"" + sec(t) + "\" d=\"M" + num(x - 4) + "," + num(y) + " L" +
                num(x + 4) + "," + num(y) + " L" + num(x) + "," + num(y + 7) + " z\" fill=\"" +
                executor_color(executor) + "\"><title>progress chunk of rank " + std::to_string(rank) +
                " run by " + escape(executor) + " at " + sec(t) + " s: " + escape(e.value("name", "")) +
                "</title></path>";
    } else if (ph == "s") {
      flow_start[e.value("id", 0LL)] = {rank, t};
    } else if (ph == "f") {
      auto it = flow_start.find(e.value("id", 0LL));
      if (it == flow_start.end())
        continue;
      auto [from, t0] = it->second;
      arrows += "<line class=\"message\" data-source=\"" + std::to_string(from) + "\" data-dest=\"" +
                std::to_string(rank) + "\" data-post=\"" + sec(t0) + "\" data-complete=\"" + sec(t) + "\" x1=\"" +
                num(x_of(t0)) + "\" y1=\"" + num(y_of(from) + kRow / 2) + "\" x2=\"" + num(x_of(t)) + "\" y2=\"" +
                num(y_of(rank) + kRow / 2) + "\" stroke=\"#333\" marker-end=\"url(#arrow-" + escape(run.policy) +
                ")\"><title>" + escape(e.value("name", "")) + " from rank " + std::to_string(from) + " to rank " +
                std::to_string(rank) + ", " + sec(t0) + " s to " + sec(t) + " s</title></line>";
    }
  }
  return out + arrows + chunks + "</svg>";
}

const char* kStyle =
    "body{font-family:sans-serif;margin:16px;color:#222}"
    "pre{background:#f6f6f6;padding:8px;white-space:pre-wrap;font-size:12px}"
    ".run{display:flex;gap:16px;align-items:flex-start;border-top:1px solid #ccc;padding-top:8px}"
    ".explain{max-width:520px}"
    "svg text{font-size:11px} .tick{stroke:#e0e0e0}"
    ".legend span{display:inline-block;margin-right:12px}"
    ".legend i{display:inline-block;width:12px;height:12px;margin-right:4px;vertical-align:middle}";

}  // namespace

std::string html_report(const std::string& program, const std::vector<PolicyRun>& runs, const std::string& table_text)
{
  // The program's file name only: the page must not depend on where it was built.
  const std::string name = program.substr(program.rfind('/') + 1);
  double end = 0;
  for (const PolicyRun& run : runs)
    end = std::max(end, end_of(run.timeline));
  if (end <= 0)
    end = 1e-6;
  std::string out = "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>progsim compare: " +
                    escape(name) + "</title><style>" + kStyle + "</style></head><body>\n";
  out += "<h1>progsim compare: " + escape(name) + "</h1>\n<pre class=\"table\">" + escape(table_text) + "</pre>\n";
  out += "<p class=\"legend\">";
  for (const char* kind : {"user", "mpi", "blocked", "sleeping", "polling"})
    out += std::string("<span><i style=\"background:") + color_of(kind) + "\"></i>" + kind + "</span>";
  for (const mpi::ExecutorDescription* e : mpi::executors(mpi::policy_catalog()))
    out += "<span><i style=\"background:" + e->colour + "\"></i>chunk run by " + e->label + "</span>";
  out += "<span>arrows: messages, from the send's start to the receive's completion</span></p>\n";
  out += "<p>Shared time axis: 0 to " + sec(end) + " s of simulated time.</p>\n";
  for (const PolicyRun& run : runs) {
    std::string outcome = run.report.value("outcome", "error");
    out += "<div class=\"run\" data-policy=\"" + escape(run.policy) + "\" data-outcome=\"" + escape(outcome) +
           "\"><div><h2>" + escape(run.policy) + ": " + escape(outcome) + "</h2>\n" + svg_of(run, end) + "</div>";
    out += "<div class=\"explain\">";
    if (run.report.contains("deadlock"))
      out += "<h3>Deadlock: " + escape(run.report["deadlock"].value("class", "")) + "</h3><pre>" +
             escape(run.report.value("message", "")) + "</pre>";
    else if (outcome != "completed")
      out += "<pre>" + escape(run.report.value("message", "")) + "</pre>";
    const nlohmann::json delays = run.report.value("progress_delays", nlohmann::json::array());
    if (!delays.empty()) {
      out += "<h3>Longest progress delays</h3><pre class=\"delays\">";
      for (const auto& d : delays)
        out += escape("rank " + std::to_string(d.value("owner", 0)) + ": " + d.value("chunk", "") + " ran " +
                      sec(d.value("delay", 0.0)) + " s late (" + d.value("class", "") + "): " + d.value("why", "")) +
               "\n";
      out += "</pre>";
    }
    // The program's own output, collapsed: its own figures (an OSU-style
    // overlap, say) beside the simulator's.
    size_t lines = static_cast<size_t>(std::count(run.output.begin(), run.output.end(), '\n'));
    if (!run.output.empty() && run.output.back() != '\n')
      ++lines;
    out += "<details class=\"output\"><summary>program output (stdout, " + std::to_string(lines) +
           " lines)</summary><pre>" + escape(run.output) + "</pre></details>";
    out += "</div></div>\n";
  }
  out += "</body></html>\n";
  return out;
}

}  // namespace progsim::cli
