// The results of a sweep, gathered from its points' directories (after a
// local run, or when a Slurm array has ended): OUTPUT/results.csv and
// results.json, one row per point in the spec's order (its parameters, then
// compare's columns), byte-identical for the same spec and points wherever
// they ran; OUTPUT/results.html, the whole table, sortable, with a link per
// comparison (the points that differ only by their policy) to
// OUTPUT/html/GROUP.html, compare's page for them: timelines, explanations
// and figures.
#pragma once

#include "progsim/SweepSpec.hpp"

#include <cstddef>

namespace progsim::cli {

// Writes the results; returns how many points have no record yet (their
// rows say "not run").
std::size_t gather_results(const SweepSpec& spec);

}  // namespace progsim::cli
