// Recording a run (`progsim run --record`). The recorder sits between the
// program and the MPI model through the profiling interface (MPI-4.1 §15.2):
// this library defines MPI_Send, MPI_Wait, ... and forwards each to its
// PMPI_ version, so the bindings need no change. Because the progsim
// launcher links this library before libprogsim.so, the program's MPI calls
// resolve here first. It also sees progsim_compute() and the sleeps
// (progsim-cc's --wrap targets), so a trace holds the time between calls.
//
// Each event is written before the call runs: a call that deadlocks or
// crashes is the trace's last event.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace progsim::traces {

// Starts writing `path` (a file, or a directory when it ends in '/' or
// exists as one) for a run of `nranks` ranks. Throws TraceError.
void start_recording(const std::string& path, int nranks, const nlohmann::ordered_json& about);
// Writes what is still pending and closes the trace.
void stop_recording();
// Records that the calling rank called `name`, which replay does not support
// (UnsupportedCalls.cpp); nothing when not recording.
void record_unsupported(const char* name);

}  // namespace progsim::traces
