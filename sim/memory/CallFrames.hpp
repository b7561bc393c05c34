// The first thing an MPI procedure constructs and the last it destroys:
// keeps the watched pages that hold its stack frames open for the whole
// call (MemoryWatch::open_call_frames). A window on the stack shares its
// page with the frames of the MPI calls made next to it; without this, each
// stack access of the call before enter_mpi and after leave_mpi trapped.
#pragma once

#include "sim/memory/MemoryWatch.hpp"

#include <cstdint>

namespace progsim::sim::memory {

class CallFrames {
public:
  CallFrames()
  {
    MemoryWatch& watch = MemoryWatch::instance();
    if (watch.watching_any())
      count_ = watch.open_call_frames(__builtin_frame_address(0), pages_);
  }
  ~CallFrames()
  {
    if (count_ > 0)
      MemoryWatch::instance().close_call_frames(pages_, count_);
  }
  CallFrames(const CallFrames&) = delete;
  CallFrames& operator=(const CallFrames&) = delete;

private:
  std::uintptr_t pages_[MemoryWatch::kCallPages];
  int count_ = 0;
};

}  // namespace progsim::sim::memory
