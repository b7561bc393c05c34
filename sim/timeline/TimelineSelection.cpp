#include "sim/timeline/TimelineSelection.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <sstream>

namespace progsim::sim {

namespace {

long long whole_number(const std::string& option, const std::string& text, const std::string& what)
{
  char* end = nullptr;
  errno = 0;
  long long value = std::strtoll(text.c_str(), &end, 10);
  if (text.empty() || *end != '\0' || errno != 0 || value < 0 || !std::isdigit(static_cast<unsigned char>(text[0])))
    throw InputError{option + ": '" + text + "' is not " + what};
  return value;
}

double seconds(const std::string& option, const std::string& text)
{
  char* end = nullptr;
  double value = std::strtod(text.c_str(), &end);
  if (text.empty() || *end != '\0' || !(value >= 0) || value > 1e300)
    throw InputError{option + ": '" + text + "' is not a number of seconds (>= 0)"};
  return value;
}

}  // namespace

std::vector<int> parse_rank_list(const std::string& option, const std::string& text)
{
  std::vector<int> ranks;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    auto dash = item.find('-');
    long long first = whole_number(option, item.substr(0, dash), "a rank or a range of ranks (0,2,8-15)");
    long long last = dash == std::string::npos
                         ? first
                         : whole_number(option, item.substr(dash + 1), "a rank or a range of ranks (0,2,8-15)");
    if (last < first)
      throw InputError{option + ": the range '" + item + "' is empty"};
    if (last > 10000000)
      throw InputError{option + ": rank " + std::to_string(last) + " is out of range"};
    for (long long r = first; r <= last; ++r)
      ranks.push_back(static_cast<int>(r));
  }
  if (ranks.empty())
    throw InputError{option + ": no rank given (a list such as 0,2,8-15)"};
  std::sort(ranks.begin(), ranks.end());
  ranks.erase(std::unique(ranks.begin(), ranks.end()), ranks.end());
  return ranks;
}

void parse_time_window(const std::string& option, const std::string& text, TimelineSelection& selection)
{
  auto colon = text.find(':');
  if (colon == std::string::npos || text.find(':', colon + 1) != std::string::npos)
    throw InputError{option + ": '" + text + "' is not a window T0:T1 (simulated seconds, either may be empty)"};
  std::string from = text.substr(0, colon), to = text.substr(colon + 1);
  selection.from = from.empty() ? 0 : seconds(option, from);
  selection.to = to.empty() ? -1 : seconds(option, to);
  if (selection.to >= 0 && selection.to <= selection.from)
    throw InputError{option + ": the window '" + text + "' is empty (T1 must be after T0)"};
}

long long parse_event_cap(const std::string& option, const std::string& text)
{
  return whole_number(option, text, "a number of events (0: no cap)");
}

}  // namespace progsim::sim
