// What a recorded timeline keeps (`progsim run --timeline-ranks LIST
// --timeline-window T0:T1 --timeline-max-events N`): a large run's timeline
// is restricted while it is recorded, so it stays small in memory as on disk.
#pragma once

#include <string>
#include <vector>

namespace progsim::sim {

struct TimelineSelection {
  // About 150 bytes each in the Chrome JSON: at most ~150 MB by default.
  static constexpr long long kDefaultMaxEvents = 1000000;

  std::vector<int> ranks;  // sorted, no duplicates; empty: every rank
  double from = 0;         // the window, in simulated seconds
  double to = -1;          // < 0: until the end of the run
  long long max_events = kDefaultMaxEvents;  // 0: no cap

  bool all_ranks() const { return ranks.empty(); }
  bool whole_run() const { return from <= 0 && to < 0; }
};

// "0,2,8-15" -> {0, 2, 8, ..., 15}. Throws InputError naming `option`.
std::vector<int> parse_rank_list(const std::string& option, const std::string& text);
// "T0:T1" in seconds, either side may be empty ("1.5:", ":2"). Throws InputError.
void parse_time_window(const std::string& option, const std::string& text, TimelineSelection& selection);
// A positive count, or 0 for no cap. Throws InputError.
long long parse_event_cap(const std::string& option, const std::string& text);

}  // namespace progsim::sim
