// The figures of a comparison, as standalone SVG files with the numbers
// behind each as CSV (compare --figures DIR, and inline in the HTML report):
// - time_by_state.POLICY: per rank (or group of ranks), stacked bars of the
//   time spent computing, in MPI calls, running progress chunks, blocked in
//   MPI, polling and sleeping;
// - latency_cdf: the distribution of message latencies, one line per policy;
// - overlap_per_operation: the share of each nonblocking operation's
//   communication time hidden behind computation, one series per policy.
// Deterministic: the same runs give byte-identical files.
#pragma once

#include "progsim/PolicyRun.hpp"

#include <string>
#include <vector>

namespace progsim::cli {

struct Figure {
  std::string name;     // file name without extension: "latency_cdf", "time_by_state.weak"
  std::string title;
  std::string caption;  // what it shows, in a sentence or two
  std::string svg;      // a standalone SVG document
  std::string csv;      // its numbers, with a header line
};

std::vector<Figure> comparison_figures(const std::vector<PolicyRun>& runs);

// Writes DIR/NAME.svg and DIR/NAME.csv for each figure; false on a write error.
bool write_figures(const std::vector<Figure>& figures, const std::string& dir);

}  // namespace progsim::cli
