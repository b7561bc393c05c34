// Which call of the program created each handle a process holds, kept so
// that MPI_Finalize's leak report can name the creating call and its
// file:line (docs/design/lifecycle-checks.md). One record per handle value,
// overwritten when a freed index is reused: the map never outgrows the
// handles alive at once. Requests keep their site themselves
// (Request::call_site): they are too many to record here.
#pragma once

#include <cstdint>
#include <unordered_map>

namespace progsim::mpi {

struct CreationSite {
  const char* call = "";        // "MPI_Comm_dup"
  std::uintptr_t mark = 0;      // diagnosis/CallSites.hpp: CallSiteMark
};

class CreationSites {
public:
  void note(std::uint32_t handle, CreationSite site) { sites_[handle] = site; }
  // nullptr when the handle was not made by a program's call.
  const CreationSite* find(std::uint32_t handle) const
  {
    auto it = sites_.find(handle);
    return it == sites_.end() ? nullptr : &it->second;
  }

private:
  std::unordered_map<std::uint32_t, CreationSite> sites_;  // looked up only, never iterated
};

// Records that the calling rank's current MPI call created `handle` (any
// kind: the kind is in the handle's top byte). Nothing outside a rank.
void note_created(std::uint32_t handle);

}  // namespace progsim::mpi
