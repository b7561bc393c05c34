// One point of a sweep, run as `progsim run` with a report and a timeline
// summary in its own directory, OUTPUT/points/ID/. Its record, point.json
// (the parameters and the exit status), is written last, to a temporary
// name renamed into place: a point is complete when its record is there
// with its parameters, so a sweep stopped anywhere (Ctrl-C, a crash, a
// Slurm task killed) reruns only the points without one.
#pragma once

#include "progsim/SweepSpec.hpp"

#include <string>

namespace progsim::cli {

// OUTPUT/points/ID
std::string point_dir(const SweepSpec& spec, const SweepPoint& point);
bool point_complete(const SweepSpec& spec, const SweepPoint& point);

// Compiles the spec's sources that are missing under OUTPUT/programs/ or
// older than their source, with progsim-cc (progsim-cxx for C++);
// sim::InputError with the compiler's messages when one fails.
void compile_programs(const SweepSpec& spec);

// Runs the point unless it is complete. Returns 0 when its record is there
// (the run's outcome is data, whatever it is), 2 for a usage error of its
// options (the run's messages on stderr), 128+signal when it was
// interrupted (no record: a rerun runs it again).
int run_point(const SweepSpec& spec, const SweepPoint& point);

// Writes `text` to `path` through a temporary file renamed into place.
void write_file_atomically(const std::string& path, const std::string& text);

}  // namespace progsim::cli
