// The ranks' coroutine stacks, carved from one anonymous mapping.
//
// Without guard pages (4,096 ranks and more: each guard page splits a
// mapping, and the kernel limits their number) SimGrid callocs every actor's
// stack from the heap, where its ends share pages with the heap objects
// around it, and its top is not page-aligned: a replayed rank that uses 7 KiB
// of its 64 KiB stack kept 3-4 pages resident. Served from this arena, each
// stack is page-aligned, untouched zero memory of its own, so only the pages
// a rank actually used are resident (issue 19: a million replayed ranks on
// 24 GiB). A replayed rank's deepest path in a stencil replay stays within
// the top page (3,928 bytes on 2026-11-28: RankReplay on the heap, cold
// error texts out of the hot frames, see ReplayProgram.cpp), so it keeps one
// page resident; communicator constructors and window creation need a
// second (traces.replay.stack_pages.*, which measure it with usage()). The
// mapping is MAP_NORESERVE: the address space of every stack is
// not charged to the machine's commit limit, only its touched pages.
//
// Simulation opens the arena for exactly the calls that create the ranks'
// actors; progsim's calloc (AllocatorCalls.cpp) serves a request of exactly
// the slot size from it while it is open, and free returns slots. Under
// AddressSanitizer, which replaces the allocator, the arena is never used.
#pragma once

#include <cstddef>

namespace progsim::sim::memory {

class StackArena {
public:
  // Maps room for `slots` stacks of `slot_bytes` (a multiple of the page
  // size) and serves them until close(); false (nothing mapped, stacks come
  // from the heap as before) if the mapping fails.
  static bool open(std::size_t slots, std::size_t slot_bytes);
  // Stops serving; slots still in use stay valid until freed.
  static void close();

  // --- called by the allocator entry points ---
  // A fresh slot for a request of `bytes`, or nullptr when the arena is
  // closed, full, or `bytes` is not its slot size.
  static void* take(std::size_t bytes);
  // Whether `pointer` is a slot; if so, its pages are returned to the
  // system, and the mapping is removed once the last slot is back.
  static bool give_back(void* pointer);

  // What the stack holding `inside` (an address in a slot: a local of the
  // running rank) has used so far: its pages resident (the memory it costs)
  // and the deepest byte written, counted from the slot's top (a stack
  // grows down from there; its untouched memory reads zero, so a written
  // zero below every non-zero byte goes unseen). False if `inside` is in no
  // slot (the arena is not used: guard pages, AddressSanitizer). For the
  // replay's stack measure (traces/replay/ReplayProgram.cpp,
  // PROGSIM_REPLAY_STACK_REPORT), not for runs: it reads the whole slot.
  struct Usage {
    std::size_t slot_bytes = 0;
    std::size_t resident_pages = 0;
    std::size_t deepest = 0;  // bytes from the slot's top to the lowest non-zero byte
  };
  static bool usage(const void* inside, Usage& out);
};

}  // namespace progsim::sim::memory
