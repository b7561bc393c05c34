// Memory attached to a dynamic window (MPI-4.1 §12.2.4): its memory watch,
// and what follows the memory when it moves.
//
// A program's attached memory never moves. A replay's may: regions the
// program attached next to each other share one allocation there
// (traces/replay/AttachedLayout), which moves to a larger one when another
// region joins them, possibly in the middle of an epoch. Everything the
// model keyed on the region's addresses then moves with it, so that the
// replay finds what the program's run found (branch attachwatch):
//  - the region's base: the target checks of later operations
//    (bindings/RmaOperations.cpp, target_address);
//  - its memory watch: a poller of the region watches its memory, never
//    memory it was moved out of;
//  - the accesses the conflict checks keep for the member (AccessConflicts:
//    fence, PSCW, passive target): an access after the move to bytes an
//    access before it reached still conflicts (MPI-4.1 §12.7, rule 2);
//  - operations under way (issued before the move, not applied at the
//    target yet): applied where the region went (relocate_target), the
//    bytes the conflict checks and the watch now place them at. The data
//    is the replay's scratch, so where it lands changes no time; landing
//    with the region keeps the model's memory one picture (a get after a
//    put of the same epoch reads the put's bytes, a write wakes the
//    region's pollers, none wakes a watch on memory moved out of).
// The memory moved out of is kept until the window is freed (the layout
// keeps it): no later allocation takes its addresses, so a move's old range
// names that move only, and an operation on its way still points into
// valid memory until it is relocated.
// Not followed: local loads and stores, which are not checked on dynamic
// windows (LocalAccessConflicts), and accesses recorded to a region that
// was detached before the move (it is no longer in the layout, nothing of
// it moves).
#pragma once

#include <cstdint>
#include <string>

namespace progsim::mpi::rma {

struct Operation;
struct Window;
struct WindowShared;

// Watches `size` bytes at `base` attached by world rank `world` lazily: it
// is program memory of any size (docs/design/rma.md, Memory); the watch id,
// -1 when not watched.
int watch_attached(const WindowShared& s, int world, const char* base, std::int64_t size);
// The calling member's memory attached at `from` is now at `to` (same size,
// same contents: the replay copied nothing, its data is scratch). False when
// nothing is attached at `from`.
bool move_attached(Window& w, int world, char* from, char* to);
// Before `op` is applied at its target: if its target's region moved since
// the origin issued it, its target address follows (each move in order).
void relocate_target(Operation& op);

}  // namespace progsim::mpi::rma
