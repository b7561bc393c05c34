// Fuzz target of the trace readers (issue 6): any input either reads as a
// trace or fails with a TraceError; nothing else may happen (no crash, no
// other exception, no hang). The input is written to a file and read like
// `progsim replay` reads it: probed, then every rank's events.
//
// With clang: the libFuzzer target trace_parser_fuzz (-DPROGSIM_FUZZ=ON).
// Everywhere: trace_parser_fuzz_smoke (FuzzSmokeMain.cpp), a bounded,
// deterministic mutation run registered in CTest.
#include "traces/TraceSource.hpp"

#include <cstdint>
#include <cstdio>
#include <string>
#include <unistd.h>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
  static const std::string path = "/tmp/progsim-trace-fuzz-" + std::to_string(::getpid());
  if (std::FILE* f = std::fopen(path.c_str(), "wb")) {
    std::fwrite(data, 1, size, f);
    std::fclose(f);
  }
  using namespace progsim::traces;
  try {
    TraceInfo info = probe_trace(path);
    int ranks = info.nranks < 8 ? info.nranks : 8;  // the header may claim millions
    for (int rank = 0; rank < ranks; ++rank) {
      auto events = open_rank_events(path, info, rank);
      TraceEvent event;
      while (events->next(event)) {
      }
    }
  } catch (const TraceError&) {
    // A clear error is a correct answer to bad input.
  }
  return 0;
}
