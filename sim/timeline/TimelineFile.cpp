#include "sim/Diagnostics.hpp"
#include "sim/timeline/Timeline.hpp"
#include "sim/timeline/TimelineFormats.hpp"
#include "sim/timeline/TimelineSummary.hpp"

#include <fstream>

namespace progsim::sim {

namespace {

bool ends_with(const std::string& text, const std::string& suffix)
{
  return text.size() >= suffix.size() && text.compare(text.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

std::string timeline_format(const std::string& file, const std::string& requested)
{
  if (!requested.empty()) {
    if (requested != "chrome" && requested != "paje" && requested != "summary")
      throw InputError{"--timeline-format: '" + requested + "' is not a format (chrome, paje or summary)"};
    return requested;
  }
  return ends_with(file, ".paje") || ends_with(file, ".trace") ? "paje" : "chrome";
}

bool write_timeline(const Timeline& timeline, const std::string& file, const std::string& format)
{
  std::ofstream out(file);
  if (!out)
    return false;
  if (format == "paje")
    write_paje_trace(timeline, out);
  else if (format == "summary")
    out << timeline_summary(timeline).dump() << "\n";
  else
    write_chrome_trace(timeline, out);
  return static_cast<bool>(out);
}

}  // namespace progsim::sim
