#include "sim/ProgressLine.hpp"

#include "sim/Simulation.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <cstdio>
#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <unistd.h>

namespace progsim::sim {

namespace {

constexpr double kFirstAfter = 1.0;   // wall seconds before the line appears
constexpr double kRedrawEvery = 0.25; // wall seconds between redraws

const Simulation* g_simulation = nullptr;
int g_fd = -1;
unsigned long long g_events = 0;  // simulated time advances since start
double g_started = 0, g_last_draw = 0;
unsigned long long g_events_at_last_draw = 0;

double wall_seconds()
{
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

void draw(double now)
{
  int finished = 0, blocked = 0, polling = 0;
  for (int r = 0; r < g_simulation->size(); ++r) {
    RankState state = g_simulation->rank(r).state();
    finished += state == RankState::Finished || state == RankState::Failed;
    blocked += state == RankState::Blocked;
    polling += state == RankState::Polling;
  }
  double rate = now > g_last_draw ? static_cast<double>(g_events - g_events_at_last_draw) / (now - g_last_draw) : 0;
  char line[200];
  int n = std::snprintf(line, sizeof line,
                        "\r\033[Kprogsim: t=%.6f s simulated; %d ranks: %d finished, %d blocked, %d polling; "
                        "%.0f events/s",
                        simgrid::s4u::Engine::get_clock(), g_simulation->size(), finished, blocked, polling, rate);
  if (n > 0 && ::write(g_fd, line, static_cast<size_t>(std::min<int>(n, sizeof line - 1))) > 0)
    detail::progress_line_shown = true;  // a terminal that refuses the line loses nothing else
}

void on_time_advance(double)
{
  if (!g_simulation || (++g_events & 255) != 0)  // the clock is read every 256 advances
    return;
  double now = wall_seconds();
  if (now - g_started < kFirstAfter || now - g_last_draw < kRedrawEvery)
    return;
  draw(now);
  g_last_draw = now;
  g_events_at_last_draw = g_events;
}

}  // namespace

void ProgressLine::start(const Simulation& simulation, int terminal_fd)
{
  const char* setting = std::getenv("PROGSIM_PROGRESS_LINE");
  if (terminal_fd < 0 || !::isatty(terminal_fd) || (setting && std::strcmp(setting, "0") == 0))
    return;
  static bool connected = false;
  if (!connected) {
    simgrid::s4u::Engine::on_time_advance_cb(on_time_advance);
    connected = true;
  }
  g_simulation = &simulation;
  g_fd = terminal_fd;
  g_events = g_events_at_last_draw = 0;
  g_started = g_last_draw = wall_seconds();
}

void ProgressLine::stop()
{
  erase();
  g_simulation = nullptr;
}

void ProgressLine::erase_shown()
{
  static const char kErase[] = "\r\033[K";
  if (::write(g_fd, kErase, sizeof kErase - 1) > 0)
    detail::progress_line_shown = false;
}

}  // namespace progsim::sim
