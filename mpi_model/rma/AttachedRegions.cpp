#include "rma/AttachedRegions.hpp"

#include "rma/AccessConflicts.hpp"
#include "rma/Operation.hpp"
#include "rma/Window.hpp"
#include "sim/memory/MemoryWatch.hpp"

namespace progsim::mpi::rma {

int watch_attached(const WindowShared& s, int world, const char* base, std::int64_t size)
{
  if (size <= 0)
    return -1;
  return sim::memory::MemoryWatch::instance().watch_lazily(
      base, static_cast<std::size_t>(size), s.name() + " (memory attached by rank " + std::to_string(world) + ")");
}

bool move_attached(Window& w, int world, char* from, char* to)
{
  WindowShared& s = *w.shared;
  WindowPart& part = s.parts[static_cast<std::size_t>(w.me)];
  AttachedRegion* region = nullptr;
  for (AttachedRegion& r : part.attached)
    if (r.base == from)
      region = &r;
  if (!region)
    return false;
  region->base = to;
  // A watch on the memory moved out of would wake nobody who polls the
  // region, and trap on retired memory once lazy watches are armed: the
  // region's watch goes with it (a new id, the same name).
  if (region->watch >= 0) {
    sim::memory::MemoryWatch::instance().unwatch(region->watch);
    region->watch = watch_attached(s, world, to, region->size);
  }
  move_accesses(s, w.me, reinterpret_cast<std::uintptr_t>(from), static_cast<std::uintptr_t>(region->size),
                reinterpret_cast<std::uintptr_t>(to));
  part.moved.push_back({from, region->size, to});
  return true;
}

void relocate_target(Operation& op)
{
  if (!op.window || op.window->flavor != Flavor::Dynamic || !op.target_type)
    return;
  const WindowPart& part = op.window->parts[static_cast<std::size_t>(op.target)];
  if (part.moved.empty())
    return;
  auto [lo, hi] = typed_span(op.target_count, *op.target_type);
  if (hi <= lo)
    return;  // no byte to reach
  // Its first byte names the region it was issued to (an access spanning
  // regions spans one block, which moves as one: the same distance for all
  // of its regions). Later moves start where earlier ones went; each move's
  // old range lies in memory kept until the window is freed, which no
  // later move or region reuses, so each applies at most once.
  auto address = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  for (const AttachedMove& m : part.moved) {
    std::uintptr_t first = address(op.target_addr) + static_cast<std::uintptr_t>(lo);
    if (first >= address(m.from) && first - address(m.from) < static_cast<std::uintptr_t>(m.size))
      op.target_addr = reinterpret_cast<char*>(address(op.target_addr) - address(m.from) + address(m.to));
  }
}

}  // namespace progsim::mpi::rma
