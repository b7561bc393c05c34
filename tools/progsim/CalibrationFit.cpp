#include "progsim/CalibrationFit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <sstream>

namespace progsim::cli {

double ProbeLine::value(const std::string& key) const
{
  auto it = values.find(key);
  return it == values.end() ? std::numeric_limits<double>::quiet_NaN() : it->second;
}

std::vector<ProbeLine> parse_probe_lines(const std::string& text)
{
  std::vector<ProbeLine> lines;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("transport=", 0) != 0)
      continue;
    ProbeLine p;
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      auto eq = word.find('=');
      if (eq == std::string::npos)
        continue;
      std::string key = word.substr(0, eq), value = word.substr(eq + 1);
      if (key == "transport")
        p.transport = value;
      else if (key == "probe")
        p.probe = value;
      else if (key == "progress")
        p.progress = value;
      else if (key == "size")
        p.size = std::atoll(value.c_str());
      else
        p.values[key] = std::strtod(value.c_str(), nullptr);
    }
    if (!p.transport.empty() && !p.probe.empty())
      lines.push_back(std::move(p));
  }
  return lines;
}

std::vector<const ProbeLine*> select_lines(const std::vector<ProbeLine>& lines, const std::string& transport,
                                           const std::string& probe, const std::string& progress)
{
  std::vector<const ProbeLine*> out;
  for (const ProbeLine& l : lines)
    if (l.transport == transport && l.probe == probe && l.progress == progress)
      out.push_back(&l);
  std::stable_sort(out.begin(), out.end(), [](const ProbeLine* a, const ProbeLine* b) { return a->size < b->size; });
  return out;
}

bool waited(double time, double compute)
{
  return time > compute / 2;
}

namespace {

struct Line {
  double intercept = 0, slope = 0;
};

// Least squares through (size, time).
Line least_squares(const std::vector<std::pair<double, double>>& points)
{
  Line line;
  double n = static_cast<double>(points.size());
  if (points.empty())
    return line;
  double sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (auto [x, y] : points) {
    sx += x;
    sy += y;
    sxx += x * x;
    sxy += x * y;
  }
  double d = n * sxx - sx * sx;
  if (points.size() < 2 || d == 0) {
    line.intercept = sy / n;
    return line;
  }
  line.slope = (n * sxy - sx * sy) / d;
  line.intercept = (sy - line.slope * sx) / n;
  return line;
}

void fit_pingpong(const std::vector<ProbeLine>& lines, TransportFit& fit)
{
  std::vector<std::pair<double, double>> small, large;
  for (const ProbeLine* p : select_lines(lines, fit.transport, "pingpong")) {
    double t = p->value("half_rtt");
    if (std::isnan(t))
      continue;
    bool eager = fit.eager_threshold < 0 ? p->size <= 65536 : p->size <= fit.eager_threshold;
    (eager ? small : large).emplace_back(static_cast<double>(p->size), t);
  }
  if (small.empty() && large.empty())
    return;
  // Too few points on one side: that side's line is taken from all of them.
  std::vector<std::pair<double, double>> all = small;
  all.insert(all.end(), large.begin(), large.end());
  Line near = least_squares(small.size() >= 2 ? small : all);
  Line far = least_squares(large.size() >= 2 ? large : all);
  fit.latency = std::max(0.0, near.intercept);
  fit.bandwidth = far.slope > 0 ? 1 / far.slope : 0;
  for (auto [x, y] : all)
    fit.residuals.push_back({static_cast<long long>(x), y, fit.latency + (fit.bandwidth > 0 ? x / fit.bandwidth : 0)});
}

void fit_blocking(const std::vector<ProbeLine>& lines, TransportFit& fit)
{
  std::vector<const ProbeLine*> block = select_lines(lines, fit.transport, "block");
  if (block.empty())
    return;
  fit.eager_threshold = 0;
  bool seen_wait = false;
  for (const ProbeLine* p : block) {
    if (waited(p->value("send_time"), p->value("compute"))) {
      fit.blocking_sizes.push_back(p->size);
      seen_wait = true;
    } else if (!seen_wait) {
      fit.eager_threshold = p->size;  // the largest size below the first that waited
    }
  }
}

void fit_overlap(const std::vector<ProbeLine>& lines, TransportFit& fit)
{
  // The largest size probed: a rendezvous message if any is.
  std::vector<const ProbeLine*> overlap = select_lines(lines, fit.transport, "overlap");
  if (overlap.empty() || fit.blocking_sizes.empty() || overlap.back()->size < fit.blocking_sizes.front())
    return;
  const ProbeLine& p = *overlap.back();
  double compute = p.value("compute");
  bool received_during_compute = !waited(p.value("send_side_recv_time"), compute);
  fit.async_progress = !waited(p.value("recv_side_send_time"), compute);
  fit.rendezvous = received_during_compute && !fit.async_progress ? "pull" : "push";
}

void fit_flag(const std::vector<ProbeLine>& lines, TransportFit& fit)
{
  for (const ProbeLine* p : select_lines(lines, fit.transport, "flag")) {
    fit.flag_sizes.push_back(p->size);
    bool deadlocked = p->value("completed") == 0;
    if (deadlocked)
      fit.deadlock_sizes.push_back(p->size);
    if (!fit.async_progress && fit.eager_threshold >= 0 && p->size > fit.eager_threshold)
      fit.rendezvous_buffered = deadlocked ? "push" : "pull";
  }
}

std::string bytes_per_second(double bandwidth)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6gBps", bandwidth);
  return buf;
}

std::string seconds(double s)
{
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6gs", s);
  return buf;
}

}  // namespace

std::vector<TransportFit> fit_transports(const std::vector<ProbeLine>& lines)
{
  std::vector<TransportFit> fits;
  for (const char* transport : {"shm", "network"}) {
    bool present = std::any_of(lines.begin(), lines.end(),
                               [&](const ProbeLine& l) { return l.transport == transport && l.progress.empty(); });
    if (!present)
      continue;
    TransportFit fit;
    fit.transport = transport;
    fit_blocking(lines, fit);  // first: the eager threshold splits the ping-pong sizes
    fit_pingpong(lines, fit);
    fit_overlap(lines, fit);
    fit_flag(lines, fit);
    fits.push_back(std::move(fit));
  }
  return fits;
}

nlohmann::ordered_json fit_cfg(const std::vector<TransportFit>& fits)
{
  // Which policy a program runs under stays the user's choice (--progress):
  // the fit says which one the real MPI behaved like (progress_policy_like).
  nlohmann::ordered_json cfg = nlohmann::ordered_json::object();
  for (const TransportFit& f : fits) {
    if (f.eager_threshold >= 0)
      cfg["eager-threshold-" + f.transport] = f.eager_threshold;
    if (!f.blocking_sizes.empty())
      cfg["rendezvous-" + f.transport] = f.rendezvous;
    if (!f.rendezvous_buffered.empty() && !f.blocking_sizes.empty() && f.rendezvous_buffered != f.rendezvous)
      cfg["rendezvous-buffered"] = f.rendezvous_buffered;
  }
  return cfg;
}

nlohmann::ordered_json fit_to_json(const TransportFit& f)
{
  nlohmann::ordered_json j;
  j["transport"] = f.transport;
  j["latency_s"] = f.latency;
  j["bandwidth_Bps"] = f.bandwidth;
  j["eager_threshold"] = f.eager_threshold;
  j["blocking_sizes"] = f.blocking_sizes;
  j["rendezvous"] = f.rendezvous;
  j["rendezvous_buffered"] = f.rendezvous_buffered;
  j["async_progress"] = f.async_progress;
  j["progress_policy_like"] = f.async_progress ? "thread" : "weak";
  j["flag_sizes"] = f.flag_sizes;
  j["deadlock_sizes"] = f.deadlock_sizes;
  nlohmann::ordered_json residuals = nlohmann::ordered_json::array();
  for (const auto& r : f.residuals)
    residuals.push_back({{"size", r.size},
                         {"measured_s", r.measured},
                         {"fitted_s", r.fitted},
                         {"relative", r.measured > 0 ? (r.fitted - r.measured) / r.measured : 0.0}});
  j["pingpong_residuals"] = residuals;
  return j;
}

std::string platform_xml(const std::vector<TransportFit>& fits, const std::string& comment, int cores)
{
  // small-cluster.xml's values for a transport that was not measured.
  double shm_lat = 0.1e-6, shm_bw = 40e9, net_lat = 0.5e-6, net_bw = 12.5e9;
  for (const TransportFit& f : fits) {
    if (!f.measured())
      continue;
    if (f.transport == "shm") {
      shm_lat = f.latency;
      shm_bw = f.bandwidth;
    } else {
      // A message between two hosts crosses two links (up and down).
      net_lat = f.latency / 2;
      net_bw = f.bandwidth;
    }
  }
  std::string xml = "<?xml version='1.0'?>\n<!DOCTYPE platform SYSTEM \"https://simgrid.org/simgrid.dtd\">\n<!-- ";
  xml += comment;
  xml += " -->\n<platform version=\"4.1\">\n  <zone id=\"world\" routing=\"Full\">\n";
  xml += "    <cluster id=\"calibrated\" prefix=\"node-\" radical=\"0-15\" suffix=\"\"\n";
  xml += "             speed=\"40Gf\" core=\"" + std::to_string(cores) + "\" bw=\"" + bytes_per_second(net_bw) +
         "\" lat=\"" + seconds(net_lat) + "\"\n";
  xml += "             loopback_bw=\"" + bytes_per_second(shm_bw) + "\" loopback_lat=\"" + seconds(shm_lat) + "\"/>\n";
  xml += "  </zone>\n</platform>\n";
  return xml;
}

double half_round_trip(const std::vector<ProbeLine>& lines, const std::string& transport, long long size,
                       const std::string& progress)
{
  for (const ProbeLine* p : select_lines(lines, transport, "pingpong", progress))
    if (p->size == size)
      return p->value("half_rtt");
  return std::numeric_limits<double>::quiet_NaN();
}

}  // namespace progsim::cli
