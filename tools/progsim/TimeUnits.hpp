// Simulated durations as people read them: "1.27 ms", "250 ns", "10.0 s",
// never "2e-07 s" (tables, figures and the HTML report).
#pragma once

#include <string>

namespace progsim::cli {

// Three significant digits in the unit that suits `seconds` (ns, µs, ms, s).
std::string format_duration(double seconds);
// An instant with up to nine significant digits in its unit: "1.00121885 s", "3.158 µs".
std::string format_instant(double seconds);
// The unit that suits `seconds` (its magnitude) and its size in seconds.
struct TimeUnit {
  const char* name;
  double seconds;
};
TimeUnit time_unit(double seconds);

}  // namespace progsim::cli
