#include "progsim/CalibrationAsync.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace progsim::cli {

namespace {

constexpr const char* kAsync = "async";
constexpr int kMaxTrials = 8;          // progsim runs spent on the interval
constexpr double kCloseEnough = 0.05;  // stop the search within 5% of the delay
constexpr double kMinInterval = 1e-7;  // 0.1 µs: below, a simulated run polls for nothing
// When the real MPI's CPU use was not measured: the thread policy's default
// share of a core (thread-poll-cost 200 ns every thread-interval 2 µs).
constexpr double kDefaultBusyFraction = 0.1;

}  // namespace

AsyncMeasure async_measure(const std::vector<ProbeLine>& lines, const std::string& transport)
{
  AsyncMeasure m;
  for (const ProbeLine* p : select_lines(lines, transport, "init", kAsync))
    m.provided = static_cast<int>(p->value("provided"));
  std::vector<const ProbeLine*> overlap = select_lines(lines, transport, "overlap", kAsync);
  std::vector<const ProbeLine*> pingpong = select_lines(lines, transport, "pingpong", kAsync);
  if (overlap.empty() || pingpong.empty())
    return m;
  const ProbeLine& o = *overlap.back();
  m.size = o.size;
  m.compute = o.value("compute");
  m.completion = o.value("recv_side_send_time");
  m.cpu_fraction = o.value("recv_side_cpu_fraction");
  m.small_size = pingpong.front()->size;
  m.half_rtt_small = pingpong.front()->value("half_rtt");
  m.transfer = half_round_trip(lines, transport, m.size, kAsync);
  m.delay = m.completion - m.transfer;
  m.async_progress = !waited(m.completion, m.compute);
  m.measured = !std::isnan(m.completion) && !std::isnan(m.transfer) && !std::isnan(m.half_rtt_small);
  return m;
}

nlohmann::ordered_json async_measure_json(const AsyncMeasure& m)
{
  auto number = [](double v) { return std::isnan(v) ? nlohmann::ordered_json() : nlohmann::ordered_json(v); };
  return {{"overlap_size", m.size},
          {"compute_s", number(m.compute)},
          {"completion_s", number(m.completion)},
          {"transfer_s", number(m.transfer)},
          {"delay_s", number(m.delay)},
          {"small_size", m.small_size},
          {"half_rtt_small_s", number(m.half_rtt_small)},
          {"cpu_fraction", number(m.cpu_fraction)},
          {"async_progress", m.async_progress},
          {"provided", m.provided}};
}

nlohmann::ordered_json ThreadFit::cfg() const
{
  return {{"thread-interval", interval}, {"thread-poll-cost", poll_cost}, {"thread-lock-cost", lock_cost}};
}

ThreadFit fit_thread_policy(const AsyncMeasure& real, const ThreadTrial& trial)
{
  ThreadFit fit;
  // A progress thread that spins shows as CPU used while its rank sleeps;
  // the policy's idle polling burns thread-poll-cost every thread-interval.
  double busy = std::isnan(real.cpu_fraction) ? kDefaultBusyFraction : std::clamp(real.cpu_fraction, 0.0, 1.0);
  // Beyond half the compute phase the probe no longer reads as asynchronous.
  double max_interval = std::max(kMinInterval, real.compute / 2);
  auto run = [&](double interval, double lock_cost) {
    ThreadFit t;
    t.interval = interval;
    t.poll_cost = busy * interval;
    t.lock_cost = lock_cost;
    t.simulated = async_measure(trial(t.cfg()));
    nlohmann::ordered_json record = t.cfg();
    record["delay_s"] = t.simulated.delay;
    record["half_rtt_small_s"] = t.simulated.half_rtt_small;
    fit.trials.push_back(record);
    return t;
  };
  auto off_delay = [&](const ThreadFit& t) { return std::fabs(t.simulated.delay - real.delay); };
  auto off_half_rtt = [&](const ThreadFit& t) { return std::fabs(t.simulated.half_rtt_small - real.half_rtt_small); };
  auto close = [](double off, double target) { return off <= kCloseEnough * std::fabs(target); };

  // Secant steps on one parameter (x -> a simulated value) towards `target`
  // from a first guess; the best run is kept (the delay is a staircase in
  // the interval: the thread notices work at its next poll).
  auto search = [&](double x, double lo, double hi, const std::function<ThreadFit(double)>& at,
                    const std::function<double(const ThreadFit&)>& value, double target) {
    std::vector<std::pair<double, double>> tried;
    ThreadFit best;
    for (int i = 0; i < kMaxTrials; ++i) {
      ThreadFit t = at(x);
      tried.emplace_back(x, value(t));
      if (i == 0 || std::fabs(value(t) - target) < std::fabs(value(best) - target))
        best = t;
      if (close(std::fabs(value(best) - target), target))
        break;
      auto [x1, v1] = tried.back();
      double next = v1 > 0 && x1 > 0 ? x1 * target / v1 : std::max(x1 * 2, lo);
      if (tried.size() > 1) {
        auto [x0, v0] = tried[tried.size() - 2];
        if (v1 != v0)
          next = x1 + (target - v1) * (x1 - x0) / (v1 - v0);
      }
      next = std::clamp(next, lo, hi);
      if (std::fabs(next - x1) <= 1e-9 * std::max(x1, lo))
        break;  // at a bound: no closer
      x = next;
    }
    return best;
  };

  // The interval from the delay, then the lock cost (every MPI call pays
  // it: the half round trip grows with it, never below 0) from the half
  // round trip; the lock cost moves the delay a little, so a second round
  // when the first left it more than 5% off.
  double lock_cost = 0;
  ThreadFit best;
  for (int round = 0; round < 2; ++round) {
    best = search(
        std::clamp(round == 0 ? real.delay : best.interval, kMinInterval, max_interval), kMinInterval, max_interval,
        [&](double interval) { return run(interval, lock_cost); },
        [](const ThreadFit& t) { return t.simulated.delay; }, real.delay);
    if (real.half_rtt_small > best.simulated.half_rtt_small || lock_cost > 0) {
      double interval = best.interval;
      ThreadFit with_lock = search(
          std::max(lock_cost, real.half_rtt_small - best.simulated.half_rtt_small), 0, 1,
          [&](double cost) { return run(interval, cost); },
          [](const ThreadFit& t) { return t.simulated.half_rtt_small; }, real.half_rtt_small);
      if (off_half_rtt(with_lock) < off_half_rtt(best))
        best = with_lock;
      lock_cost = best.lock_cost;
    }
    if (close(off_delay(best), real.delay))
      break;
  }
  fit.interval = best.interval;
  fit.poll_cost = best.poll_cost;
  fit.lock_cost = best.lock_cost;
  fit.simulated = best.simulated;
  return fit;
}

}  // namespace progsim::cli
