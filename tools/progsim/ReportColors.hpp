// The colours of the report's states, policies and progress executors, one
// place for the HTML timelines and the figures.
#pragma once

#include <string>

namespace progsim::cli {

// "user", "mpi", "blocked", "sleeping", "polling", and "chunks" (the time
// a rank spent running progress chunks).
const char* state_color(const std::string& state);
// The k-th policy of a comparison.
const char* series_color(std::size_t k);
// The colour a progress policy gave its executor's chunks.
std::string executor_color(const std::string& executor);

}  // namespace progsim::cli
