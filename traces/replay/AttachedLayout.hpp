// The memory one replayed rank attaches to one dynamic window, laid out as
// the program's was where it matters. A dynamic window's target data only
// has to lie in attached memory (MPI-4.1 §12.2.4: "the target_disp ... is
// the address at the target"), so one access may span two regions attached
// next to each other, and the model accepts it (bindings/RmaOperations.cpp,
// target_address; MPICH's win_dynamic_rma_flush_get does so). A replay's
// regions are its own scratch memory: the regions that the trace says were
// adjacent ("after", "before" of `win_attach`) are adjacent here too, so the
// replayed access is valid as the program's was (issue 19, rma_semantics).
//
// Regions that adjoin form a block: one allocation that mirrors the
// program's addresses of its regions, offsets kept. Attaching a region
// next to a block may not fit in its allocation: the block moves to a
// larger one (grown geometrically, so n adjacent attaches move it O(log n)
// times), and `moved` tells the caller of every region's new address, which
// it gives the model (rma::move_attached: the region's base, its memory
// watch, the accesses its conflict checks keep, its operations under way)
// and the origins. The memory left is kept until the layout goes (the
// window is freed): an operation under way points into it until the model
// relocates it, and no later allocation takes those addresses, so an old
// address names one move only. The data is scratch.
#pragma once

#include "traces/replay/Scratch.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace progsim::traces {

class AttachedLayout {
public:
  // (region, its old address, its new one)
  using Moved = std::function<void(int, char*, char*)>;

  // Memory for `region` of `bytes`, right after region `after` and right
  // before region `before` (each -1 for none). Throws std::invalid_argument
  // naming the problem for a region already attached, a neighbour that is
  // not, and neighbours whose places contradict each other.
  char* attach(int region, long long bytes, int after, int before, const Moved& moved);
  // The region's address, nullptr if it is not attached.
  char* address(int region) const;
  // Forgets the region (its memory stays with its block).
  void detach(int region);
  // The regions attached, in region order.
  std::vector<int> regions() const;

private:
  struct Block {
    ScratchBlock memory;
    long long lo = 0, hi = 0;  // the program-relative offsets memory[0 .. hi-lo) mirrors
  };
  struct Placed {
    int block;
    long long at;  // program-relative offset in its block
    long long bytes;
  };
  // Gives block `b` memory covering [lo, hi): new memory if it does not
  // already (its regions' addresses change with it).
  void cover(int b, long long lo, long long hi);
  char* address_of(const Placed& p) const;

  std::vector<Block> blocks_;
  std::vector<ScratchBlock> retired_;  // memory blocks moved out of
  std::map<int, Placed> regions_;
};

}  // namespace progsim::traces
