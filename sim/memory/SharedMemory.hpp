// Memory that several ranks share and watch (MPI_Win_allocate_shared), with
// a second mapping for the simulator.
//
// Both mappings are views of one memfd. The ranks use `user`, whose pages are
// protected while watched; the simulator writes through `simulator`, which
// is always writable, so an RMA operation never has to open the pages (and
// race with a rank's single-step). After such a write the simulator calls
// MemoryWatch::notify_write(user address, bytes).
#pragma once

#include <cstddef>
#include <string>

namespace progsim::sim::memory {

struct SharedMemory {
  void* user = nullptr;       // what ranks read and write (watched)
  void* simulator = nullptr;  // always-writable view of the same bytes
  std::size_t bytes = 0;      // requested size
  std::size_t mapped = 0;     // rounded up to whole pages
  int fd = -1;

  // Translates an address of the user view into the simulator view.
  void* simulator_address(const void* user_address) const;
};

// Zero-filled; throws std::runtime_error if memfd or mmap fails.
SharedMemory allocate_shared_memory(std::size_t bytes, const std::string& name);
void free_shared_memory(SharedMemory& memory);

}  // namespace progsim::sim::memory
