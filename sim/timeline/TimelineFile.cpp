#include "sim/Diagnostics.hpp"
#include "sim/timeline/Timeline.hpp"
#include "sim/timeline/TimelineFormats.hpp"

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
    if (requested != "chrome" && requested != "paje")
      throw InputError{"--timeline-format: '" + requested + "' is not a format (chrome or paje)"};
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
    out << paje_trace(timeline);
  else
    out << chrome_trace(timeline).dump(1) << "\n";
  return static_cast<bool>(out);
}

}  // namespace progsim::sim
