// Import of OTF2 archives (`progsim replay DIR/traces.otf2`), as Score-P's
// MPI adapter writes them and `progsim run --otf2` exports them: each MPI
// rank is the first location (thread) of a process location group; its MPI
// calls are its Enter/Leave pairs of MPI regions with the MPI records
// between them (MpiSend, MpiIsend, MpiIrecvRequest, MpiIrecv,
// MpiIsendComplete, MpiRecv, MpiCollectiveBegin/End), and the time between
// two MPI calls is computation (scaled by --cfg otf2-compute-scale). Each
// call becomes the progsim trace events with the same meaning
// (docs/traces.md); communicators other than MPI_COMM_WORLD and
// MPI_COMM_SELF are made right after MPI_Init, one MPI_Comm_split of
// MPI_COMM_WORLD each, in definition order. Events progsim cannot replay
// stop the replay with an error naming the archive, the location and the
// event's position in it.
#pragma once

#include "traces/TraceSource.hpp"

namespace progsim::traces {

// Whether `path` names an OTF2 anchor file (by its ".otf2" suffix).
bool is_otf2_archive(const std::string& path);
TraceInfo probe_otf2_trace(const std::string& path);
std::unique_ptr<RankEventSource> open_otf2_rank_events(const std::string& path, const TraceInfo& info, int rank);

}  // namespace progsim::traces
