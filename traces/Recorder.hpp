// Recording a run (`progsim run --record`). The recorder sits between the
// program and the MPI model through the profiling interface (MPI-4.1 §15.2):
// this library defines MPI_Send, MPI_Wait, ... and forwards each to its
// PMPI_ version, so the bindings need no change. Because the progsim
// launcher links this library before libprogsim.so, the program's MPI calls
// resolve here first. It also sees progsim_compute() and the sleeps
// (progsim-cc's --wrap targets), so a trace holds the time between calls.
// The calls it has no wrapper for reach it through one generic hook
// (sim/ProgramCallHook.hpp), classified in UnrecordedCalls.def: local calls
// are recorded as their cost, the others refused with an `unsupported` event.
//
// Each event is written before the call runs: a call that deadlocks or
// crashes is the trace's last event. The same view of the run can also be
// written as an OTF2 archive (`--otf2 DIR`, Otf2Export), which also needs
// when each call returned and what it received.
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace progsim::traces {

// Starts writing a progsim trace to `path` (a file, or a directory when it
// ends in '/' or exists as one) and/or an OTF2 archive to `otf2_dir` (either
// may be empty) for a run of `nranks` ranks. Throws TraceError.
void start_recording(const std::string& path, const std::string& otf2_dir, int nranks,
                     const nlohmann::ordered_json& about);
// Writes what is still pending and closes the outputs; `end`: the run's
// simulated end (calls still blocked then end there in the OTF2 archive).
// Throws TraceError when the OTF2 archive cannot be completed.
void stop_recording(double end);

}  // namespace progsim::traces
