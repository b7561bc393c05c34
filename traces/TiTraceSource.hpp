// Import of SimGrid's time-independent traces (smpirun -trace-ti, SimGrid's
// examples/smpi/replay): lines "RANK ACTION ARGS...", either one file with
// every rank or an index file listing one file per rank (or a single file
// with every rank). Each action becomes the progsim events with the same
// meaning as SMPI's replay gives it (src/smpi/internals/smpi_replay.cpp of
// SimGrid 3.32): sizes are counts of the trace's default datatype (MPI_BYTE,
// or MPI_DOUBLE when "init" has an argument) unless the action names one;
// reductions are followed by their "comp_size" flops of computation.
#pragma once

#include "traces/TraceSource.hpp"

namespace progsim::traces {

TraceInfo probe_ti_trace(const std::string& path);
std::unique_ptr<RankEventSource> open_ti_rank_events(const std::string& path, const TraceInfo& info, int rank);

}  // namespace progsim::traces
