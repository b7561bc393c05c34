#include "progsim/Figures.hpp"

#include "progsim/Markup.hpp"
#include "progsim/ReportColors.hpp"
#include "progsim/TimeUnits.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <fstream>

namespace progsim::cli {

namespace {

constexpr double kWidth = 640, kLeft = 96, kRight = 24, kTop = 34;
constexpr double kPlotWidth = kWidth - kLeft - kRight;

// The series of time_by_state, bottom to top of a bar; "chunks" is the time
// the rank ran progress chunks (its count times chunk-cost), taken from its
// time in MPI calls (where chunks run), then from its blocked time.
constexpr std::array<const char*, 6> kTimeSeries = {"user", "mpi", "chunks", "blocked", "polling", "sleeping"};
constexpr std::array<const char*, 6> kTimeSeriesTitles = {"computing",     "in MPI calls", "progress chunks",
                                                          "blocked in MPI", "polling",      "sleeping"};

class Svg {
public:
  Svg(double height, const std::string& title)
  {
    text_ = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" + fixed(kWidth, "%.0f") + "\" height=\"" +
            fixed(height, "%.0f") + "\" viewBox=\"0 0 " + fixed(kWidth, "%.0f") + " " + fixed(height, "%.0f") +
            "\" font-family=\"sans-serif\" font-size=\"11\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
    label(kWidth / 2, 18, title, "middle", "font-size=\"13\" font-weight=\"bold\"");
  }
  void add(const std::string& element) { text_ += element + "\n"; }
  void label(double x, double y, const std::string& text, const char* anchor = "start", const std::string& extra = "")
  {
    add("<text x=\"" + fixed(x) + "\" y=\"" + fixed(y) + "\" text-anchor=\"" + anchor + "\"" +
        (extra.empty() ? "" : " " + extra) + ">" + escape_markup(text) + "</text>");
  }
  void line(double x1, double y1, double x2, double y2, const char* stroke = "#888")
  {
    add("<line x1=\"" + fixed(x1) + "\" y1=\"" + fixed(y1) + "\" x2=\"" + fixed(x2) + "\" y2=\"" + fixed(y2) +
        "\" stroke=\"" + stroke + "\"/>");
  }
  std::string finish() { return text_ + "</svg>\n"; }

private:
  std::string text_;
};

// "Nice" tick spacing for [0, top].
double tick_step(double top, int count)
{
  double raw = top / count, magnitude = std::pow(10.0, std::floor(std::log10(raw)));
  for (double m : {1.0, 2.0, 5.0})
    if (magnitude * m >= raw)
      return magnitude * m;
  return magnitude * 10;
}

void legend(Svg& svg, double y, const std::vector<std::pair<std::string, std::string>>& entries)
{
  double x = kLeft;
  for (const auto& [title, color] : entries) {
    svg.add("<rect x=\"" + fixed(x) + "\" y=\"" + fixed(y - 9) + "\" width=\"10\" height=\"10\" fill=\"" + color + "\"/>");
    svg.label(x + 14, y, title);
    x += 22 + 6.5 * static_cast<double>(title.size());
  }
}

// A y axis from 0 to 1 over [top, bottom], with a label.
void share_axis(Svg& svg, double top, double bottom, const std::string& title)
{
  for (int k = 0; k <= 4; ++k) {
    double y = bottom - (bottom - top) * k / 4;
    svg.line(kLeft - 4, y, kLeft + kPlotWidth, y, k == 0 ? "#888" : "#e4e4e4");
    svg.label(kLeft - 6, y + 4, fixed(k / 4.0, "%.2f"), "end");
  }
  svg.label(14, (top + bottom) / 2, title, "middle",
            "transform=\"rotate(-90 14 " + fixed((top + bottom) / 2) + ")\"");
}

double number_at(const nlohmann::json& object, const char* key)
{
  return object.is_object() && object.contains(key) && object[key].is_number() ? object[key].get<double>() : 0.0;
}

// Per row (rank, or group of ranks as the summary's lanes): the seconds of
// each kTimeSeries.
struct TimeRows {
  std::vector<std::string> labels;
  std::vector<std::array<double, kTimeSeries.size()>> seconds;
};

TimeRows time_rows(const PolicyRun& run)
{
  TimeRows rows;
  const nlohmann::json& by_state = run.summary.at("totals").at("time_by_state");
  const nlohmann::json& ranks = run.report.value("ranks", nlohmann::json::array());
  double chunk_cost = number_at(run.report.value("parameters", nlohmann::json::object()), "chunk-cost");
  int nranks = static_cast<int>(by_state.size());
  int per_row = std::max(1, run.summary.at("lanes").value("ranks_per_lane", 1));
  for (int first = 0; first < nranks; first += per_row) {
    int last = std::min(nranks, first + per_row) - 1;
    std::array<double, kTimeSeries.size()> sum{};
    for (int r = first; r <= last; ++r) {
      const nlohmann::json& t = by_state[static_cast<std::size_t>(r)];  // user, mpi, blocked, sleeping, polling
      double user = t[0], mpi = t[1], blocked = t[2], sleeping = t[3], polling = t[4];
      double chunks = 0;
      if (static_cast<std::size_t>(r) < ranks.size() && ranks[static_cast<std::size_t>(r)].contains("chunks"))
        chunks = number_at(ranks[static_cast<std::size_t>(r)]["chunks"], "rank") * chunk_cost;
      double from_mpi = std::min(chunks, mpi), from_blocked = std::min(chunks - from_mpi, blocked);
      std::array<double, kTimeSeries.size()> v = {user, mpi - from_mpi, from_mpi + from_blocked, blocked - from_blocked,
                                                  polling, sleeping};
      for (std::size_t s = 0; s < v.size(); ++s)
        sum[s] += v[s];
    }
    rows.labels.push_back(first == last ? "rank " + std::to_string(first)
                                        : "ranks " + std::to_string(first) + "-" + std::to_string(last));
    rows.seconds.push_back(sum);
  }
  return rows;
}

Figure time_by_state(const PolicyRun& run, double longest)
{
  TimeRows rows = time_rows(run);
  constexpr double kRow = 14;
  double plot_bottom = kTop + kRow * static_cast<double>(rows.labels.size());
  // A timeline cut by its event cap covers only its beginning: said in the title.
  std::string cut = run.summary.value("truncated", false)
                        ? ", recorded until " + format_duration(run.summary.value("truncated_at", 0.0)) + " (event cap)"
                        : "";
  Svg svg(plot_bottom + 62, "Time by state, " + run.policy + " (" + run.report.value("outcome", "") + ")" + cut);
  double step = tick_step(longest, 5);
  for (double t = 0; t <= longest * 1.0000001; t += step) {
    double x = kLeft + t / longest * kPlotWidth;
    svg.line(x, kTop - 2, x, plot_bottom + 4, t == 0 ? "#888" : "#e4e4e4");
    svg.label(x, plot_bottom + 16, format_duration(t), "middle");
  }
  svg.label(kLeft + kPlotWidth / 2, plot_bottom + 30, "simulated time", "middle");
  std::string csv = "policy,row,computing,mpi,progress_chunks,blocked,polling,sleeping\n";
  for (std::size_t s = 0; s < kTimeSeries.size(); ++s) {
    std::string group = std::string("<g class=\"series\" data-series=\"") + kTimeSeriesTitles[s] + "\" fill=\"" +
                        state_color(kTimeSeries[s]) + "\">";
    for (std::size_t r = 0; r < rows.labels.size(); ++r) {
      double before = 0;
      for (std::size_t below = 0; below < s; ++below)
        before += rows.seconds[r][below];
      double seconds = rows.seconds[r][s];
      if (seconds <= 0)
        continue;
      group += "<rect x=\"" + fixed(kLeft + before / longest * kPlotWidth) + "\" y=\"" +
               fixed(kTop + kRow * static_cast<double>(r) + 2) + "\" width=\"" +
               fixed(std::max(seconds / longest * kPlotWidth, 0.5)) + "\" height=\"" + fixed(kRow - 4) +
               "\" data-row=\"" + rows.labels[r] + "\" data-seconds=\"" + fixed(seconds, "%.12g") + "\"><title>" +
               rows.labels[r] + ": " + kTimeSeriesTitles[s] + " " + format_duration(seconds) + "</title></rect>";
    }
    svg.add(group + "</g>");
  }
  for (std::size_t r = 0; r < rows.labels.size(); ++r) {
    svg.label(kLeft - 6, kTop + kRow * static_cast<double>(r) + kRow - 3, rows.labels[r], "end");
    csv += run.policy + "," + rows.labels[r];
    for (double seconds : rows.seconds[r])
      csv += "," + fixed(seconds, "%.12g");
    csv += "\n";
  }
  std::vector<std::pair<std::string, std::string>> entries;
  for (std::size_t s = 0; s < kTimeSeries.size(); ++s)
    entries.emplace_back(kTimeSeriesTitles[s], state_color(kTimeSeries[s]));
  legend(svg, plot_bottom + 52, entries);
  int per_row = std::max(1, run.summary.at("lanes").value("ranks_per_lane", 1));
  return {"time_by_state." + run.policy, "Time by state: " + run.policy,
          (per_row == 1 ? std::string("Per rank") : "Per group of " + std::to_string(per_row) + " ranks") +
              ", the simulated time spent computing, inside MPI calls, running progress chunks (their count times "
              "chunk-cost), blocked in MPI, polling watched memory and sleeping, under the " +
              run.policy + " policy; every policy on the same scale" + cut + ".",
          svg.finish(), csv};
}

nlohmann::json latency_points(const PolicyRun& run)
{
  return run.report.value("messages", nlohmann::json::object()).value("latency_cdf", nlohmann::json::array());
}

// The latency at each percentile, per policy, on a log-scale time axis.
Figure latency_cdf(const std::vector<PolicyRun>& runs)
{
  constexpr double kPlotHeight = 260;
  double bottom = kTop + kPlotHeight;
  Svg svg(bottom + 62, "Message latency (CDF)");
  double low = 0, high = 0;
  for (const PolicyRun& run : runs)
    for (const auto& point : latency_points(run)) {
      double latency = point[1];
      if (latency > 0) {
        low = low > 0 ? std::min(low, latency) : latency;
        high = std::max(high, latency);
      }
    }
  std::string csv = "policy,fraction,latency_seconds\n";
  if (high <= 0) {
    svg.label(kWidth / 2, kTop + kPlotHeight / 2, "no message completed", "middle");
    return {"latency_cdf", "Message latency", "No message completed in these runs.", svg.finish(), csv};
  }
  // Whole decades around the data.
  double first = std::floor(std::log10(low)), last = std::max(first + 1, std::ceil(std::log10(high)));
  auto x_of = [&](double latency) {
    return kLeft + (std::log10(std::max(latency, low)) - first) / (last - first) * kPlotWidth;
  };
  for (double decade = first; decade <= last; ++decade) {
    double x = kLeft + (decade - first) / (last - first) * kPlotWidth;
    svg.line(x, kTop, x, bottom + 4, "#e4e4e4");
    svg.label(x, bottom + 16, format_duration(std::pow(10.0, decade)), "middle");
  }
  share_axis(svg, kTop, bottom, "fraction of messages");
  svg.label(kLeft + kPlotWidth / 2, bottom + 30, "latency, from the send's start to the receive's completion (log scale)",
            "middle");
  std::vector<std::pair<std::string, std::string>> entries;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    const auto& cdf = latency_points(runs[k]);
    std::string points;
    for (const auto& point : cdf) {
      double fraction = point[0], latency = point[1];
      points += (points.empty() ? "" : " ") + fixed(x_of(latency)) + "," + fixed(bottom - fraction * kPlotHeight);
      csv += runs[k].policy + "," + fixed(fraction, "%.2f") + "," + fixed(latency, "%.12g") + "\n";
    }
    svg.add("<g class=\"series\" data-series=\"" + escape_markup(runs[k].policy) + "\" data-points=\"" +
            std::to_string(cdf.size()) + "\"><polyline fill=\"none\" stroke-width=\"2\" stroke=\"" +
            series_color(k) + "\" points=\"" + points + "\"/></g>");
    entries.emplace_back(runs[k].policy, series_color(k));
  }
  legend(svg, bottom + 52, entries);
  return {"latency_cdf", "Message latency",
          "The share of messages (y) whose latency, from the send's start to the receive's completion, is at most x; "
          "one line per policy.",
          svg.finish(), csv};
}

// Each nonblocking operation's overlap (hidden / communication time), in
// rank order then start time, one series of dots per policy.
Figure overlap_per_operation(const std::vector<PolicyRun>& runs)
{
  constexpr double kPlotHeight = 220;
  constexpr std::size_t kMaxDots = 4096;  // per policy; more are shown one in N
  double bottom = kTop + kPlotHeight;
  Svg svg(bottom + 62, "Overlap per nonblocking operation");
  std::string csv = "policy,rank,operation,call,start,complete,communication_time,hidden_time,overlap\n";
  struct Dot {
    int rank;
    nlohmann::json op;
  };
  std::vector<std::vector<Dot>> dots(runs.size());
  std::size_t most = 0;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    for (const auto& rank : runs[k].report.value("ranks", nlohmann::json::array()))
      if (rank.contains("overlap"))
        for (const auto& op : rank["overlap"].value("per_operation", nlohmann::json::array()))
          dots[k].push_back({rank.value("rank", 0), op});
    most = std::max(most, dots[k].size());
  }
  if (most == 0) {
    svg.label(kWidth / 2, kTop + kPlotHeight / 2, "no nonblocking operation", "middle");
    return {"overlap_per_operation", "Overlap per nonblocking operation", "The programs started no nonblocking operation.",
            svg.finish(), csv};
  }
  share_axis(svg, kTop, bottom, "share hidden behind computation");
  svg.label(kLeft + kPlotWidth / 2, bottom + 16,
            "nonblocking operations, by rank then start time (" + std::to_string(most) + ")", "middle");
  std::vector<std::pair<std::string, std::string>> entries;
  for (std::size_t k = 0; k < runs.size(); ++k) {
    std::size_t stride = (dots[k].size() + kMaxDots - 1) / kMaxDots;
    std::string group = "<g class=\"series\" data-series=\"" + escape_markup(runs[k].policy) + "\" fill=\"" +
                        series_color(k) + "\" data-points=\"" + std::to_string(dots[k].size()) + "\">";
    for (std::size_t i = 0; i < dots[k].size(); ++i) {
      const nlohmann::json& op = dots[k][i].op;
      double communication = number_at(op, "communication_time"), hidden = number_at(op, "hidden_time");
      double share = communication > 0 ? hidden / communication : 0;
      csv += runs[k].policy + "," + std::to_string(dots[k][i].rank) + "," + std::to_string(i) + "," +
             op.value("call", "") + "," + fixed(number_at(op, "start"), "%.12g") + "," +
             fixed(number_at(op, "complete"), "%.12g") + "," + fixed(communication, "%.12g") + "," +
             fixed(hidden, "%.12g") + "," + fixed(share, "%.6f") + "\n";
      if (i % std::max<std::size_t>(stride, 1) != 0)
        continue;
      // Side by side within an operation's slot: equal values do not hide each other.
      double slot = (static_cast<double>(k) + 0.5) / static_cast<double>(runs.size());
      double x = kLeft + (static_cast<double>(i) + slot) / static_cast<double>(most) * kPlotWidth;
      group += "<circle cx=\"" + fixed(x) + "\" cy=\"" + fixed(bottom - share * kPlotHeight) +
               "\" r=\"2.5\" data-overlap=\"" + fixed(share, "%.6f") + "\"><title>" + escape_markup(runs[k].policy) +
               ", rank " + std::to_string(dots[k][i].rank) + " " + escape_markup(op.value("call", "")) + ": " +
               fixed(share * 100, "%.1f") + "% of " + format_duration(communication) + " hidden</title></circle>";
    }
    svg.add(group + "</g>");
    entries.emplace_back(runs[k].policy, series_color(k));
  }
  legend(svg, bottom + 52, entries);
  return {"overlap_per_operation", "Overlap per nonblocking operation",
          "For each nonblocking operation (start to completion), the share of its communication time hidden behind "
          "the rank's computation: 1 when it progressed entirely while the rank computed, 0 when only inside MPI "
          "calls (the compare column overlap sums these). One series per policy.",
          svg.finish(), csv};
}

}  // namespace

std::vector<Figure> comparison_figures(const std::vector<PolicyRun>& runs)
{
  std::vector<Figure> figures;
  double longest = 0;  // one time scale for every policy's bars
  for (const PolicyRun& run : runs) {
    if (run.summary.is_null())
      continue;
    for (const auto& seconds : time_rows(run).seconds) {
      double total = 0;
      for (double s : seconds)
        total += s;
      longest = std::max(longest, total);
    }
  }
  if (longest <= 0)
    longest = 1e-9;
  for (const PolicyRun& run : runs)
    if (!run.summary.is_null())
      figures.push_back(time_by_state(run, longest));
  figures.push_back(latency_cdf(runs));
  figures.push_back(overlap_per_operation(runs));
  return figures;
}

bool write_figures(const std::vector<Figure>& figures, const std::string& dir)
{
  for (const Figure& f : figures)
    for (const auto& [extension, text] : {std::pair{".svg", &f.svg}, std::pair{".csv", &f.csv}}) {
      std::ofstream out(dir + "/" + f.name + extension);
      out << *text;
      if (!out)
        return false;
    }
  return true;
}

}  // namespace progsim::cli
