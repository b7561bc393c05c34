// What the user asked for on the command line (`progsim run ...`).
#pragma once

#include "sim/Placement.hpp"
#include "sim/timeline/TimelineSelection.hpp"

#include <string>
#include <utility>
#include <vector>

namespace progsim::sim {

struct RunOptions {
  int nranks = 1;
  std::string program;             // path to a program built with progsim-cc
  std::vector<std::string> args;   // its arguments (argv[1..])
  std::string platform_file;       // empty: the bundled default cluster
  std::string hostfile;            // empty: hosts in platform order
  std::string host_list;           // --host h1:2,h2; empty: none
  int ranks_per_node = 1;
  MapBy map_by = MapBy::Slot;
  bool oversubscribe = false;      // more ranks than slots (sim/Placement.hpp)
  std::string policy = "weak";
  std::vector<std::pair<std::string, std::string>> cfg;  // --cfg key=value, in order
  std::vector<std::pair<std::string, std::string>> environment;  // -x, -genv: for the ranks only
  std::string report_file;         // empty: no JSON report
  std::string timeline_file;       // empty: no timeline (--timeline)
  std::string timeline_format;     // "chrome" or "paje"
  TimelineSelection timeline_selection;  // --timeline-ranks, --timeline-window, --timeline-max-events
  bool privatize = true;
  bool tag_output = false;
  double time_limit = -1;          // simulated seconds; <0: none
  std::string time_limit_source;   // named when reached if not --time-limit (MPIEXEC_TIMEOUT)
  double host_time_limit = -1;     // host (wall-clock) seconds; <0: none (sim/Interruption.hpp)
  std::string host_time_limit_source;  // the option or variable that set it, named when reached
  std::string command_line;        // for the report
};

}  // namespace progsim::sim
