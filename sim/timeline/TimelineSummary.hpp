// A recorded timeline summarised for drawing (`--timeline-format summary`,
// what the HTML report draws), bounded in size whatever the run's length
// or number of ranks:
// - lanes: one per rank, or per group of consecutive ranks beyond
//   kMaxLanes ranks;
// - levels: per lane, the share of each state (user, mpi, blocked,
//   sleeping, polling) in each time bucket, at a few resolutions (1,024
//   buckets over the run, then 8 times finer each), kept while they fit in a
//   budget; plus the number of messages posted per bucket;
// - tiles: the run cut into 4,096 tiles; in the tiles with few events, the
//   exact intervals, progress chunks and messages (up to a budget), so that
//   zooming into a quiet part shows every call and arrow;
// - marks: instants worth zooming to (the end of a deadlocked run, the
//   longest waits, where the event cap stopped the recording);
// - totals: per rank, the time in each state (the figures' numbers).
// Times are simulated seconds rounded to picoseconds.
#pragma once

#include <nlohmann/json.hpp>

namespace progsim::sim {

class Timeline;

struct TimelineSummaryLimits {
  int max_lanes = 32;
  int coarsest_buckets = 1024;
  int level_factor = 8;         // each level's buckets are this much finer
  int max_levels = 4;
  long long level_budget = 120000;  // run-length tokens over all levels
  int tiles = 4096;
  long long exact_per_tile = 6000;  // a tile with more events is drawn from the levels
  long long exact_budget = 30000;   // exact events kept (by the tile they begin in), quietest tiles first;
                                    // intervals reaching into an exact tile from before come too
  int longest_waits = 5;
};

nlohmann::ordered_json timeline_summary(const Timeline& timeline, const TimelineSummaryLimits& limits = {});

}  // namespace progsim::sim
