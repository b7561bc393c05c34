#include "progsim/TimeUnits.hpp"

#include <cmath>
#include <cstdio>

namespace progsim::cli {

TimeUnit time_unit(double seconds)
{
  // Just under a unit counts as one when three digits round up to it (999.97 us: "1.00 ms").
  double magnitude = std::fabs(seconds) / 0.9995;
  if (magnitude >= 1 || magnitude == 0)
    return {"s", 1};
  if (magnitude >= 1e-3)
    return {"ms", 1e-3};
  if (magnitude >= 1e-6)
    return {"\u00b5s", 1e-6};
  return {"ns", 1e-9};
}

std::string format_duration(double seconds)
{
  TimeUnit unit = time_unit(seconds);
  double value = seconds / unit.seconds;
  double magnitude = std::fabs(value);
  char buf[64];
  // The thresholds where rounding to three digits adds one (99.97 -> "100").
  std::snprintf(buf, sizeof buf, magnitude >= 99.95 || value == 0 ? "%.0f %s" : magnitude >= 9.995 ? "%.1f %s" : "%.2f %s",
                value, unit.name);
  return buf;
}

std::string format_instant(double seconds)
{
  TimeUnit unit = time_unit(seconds);
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.9g %s", seconds / unit.seconds, unit.name);
  return buf;
}

}  // namespace progsim::cli
