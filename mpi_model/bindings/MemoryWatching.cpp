// The C extension of mpi.h for programs and tests: watch a range of the
// program's own memory by hand (MPI windows do it themselves). The watching
// is sim/memory's; this is its entry point for programs, next to the other
// procedures mpi.h declares.

#include "mpi.h"

#include "sim/memory/MemoryWatch.hpp"

#include <cstdio>
#include <string>

using progsim::sim::memory::MemoryWatch;

extern "C" {

int progsim_watch_memory(volatile void* address, size_t bytes, const char* name)
{
  MemoryWatch& watch = MemoryWatch::instance();
  if (!watch.enabled())
    return 0;  // switched off or unsupported: nothing to do
  if (!address || bytes == 0)
    return -1;
  const void* start = const_cast<const void*>(address);
  std::string description;
  if (name) {
    description = name;
  } else {
    char text[48];
    std::snprintf(text, sizeof text, "memory at %p", start);
    description = text;
  }
  return watch.watch(start, bytes, description) >= 0 ? 1 : -1;
}

int progsim_unwatch_memory(volatile void* address)
{
  MemoryWatch& watch = MemoryWatch::instance();
  if (!watch.enabled())
    return 0;
  return watch.unwatch_at(const_cast<const void*>(address)) > 0 ? 1 : -1;
}

}  // extern "C"
