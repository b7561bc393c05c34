#include "rma/WindowLifetime.hpp"

#include "MpiModel.hpp"
#include "rma/RmaEngine.hpp"
#include "coll/Collectives.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <dlfcn.h>

#include <cstdint>

namespace progsim::mpi::rma {

namespace {

sim::memory::MemoryWatch& memory()
{
  return sim::memory::MemoryWatch::instance();
}

// MPI_Win_allocate_shared: one block for the group, each member's part
// following the previous one (MPI-4.1 §12.2.3, contiguous by default).
void place_shared_segment(WindowShared& w)
{
  if (w.segment_ready)
    return;
  w.segment_ready = true;
  std::int64_t total = 0;
  for (const WindowPart& p : w.parts)
    total += p.size;
  char* base = nullptr;
  if (total > 0) {
    w.segment = memory().allocate_shared(static_cast<std::size_t>(total), w.name());
    base = static_cast<char*>(w.segment.user);
  }
  std::int64_t offset = 0;
  for (WindowPart& p : w.parts) {
    p.base = base ? base + offset : nullptr;
    offset += p.size;
  }
}

// Whether to watch a window part (--cfg window-watch). Watched pages trap on
// every access, also by the simulator and by the MPI calls' own stack frames
// sharing the page. MPI_Win_create memory on the heap shares its pages with
// the simulator's data, and a data array on the stack with the frames of the
// loops of MPI calls that use it; a large buffer is data that the program
// initializes and checks element by element (one trap each). `auto` watches
// memory MPI allocated up to a page (flags), and MPI_Win_create memory
// when it is a flag (at most kFlagBytes) on the stack or in the program's
// globals; the rest lazily: only once a rank seems to spin
// (MemoryWatch::watch_lazily, --cfg memory-watch-arm).
enum class PartWatch { None, Now, Lazily };

PartWatch watch_part(const CallContext& caller, Flavor flavor, const void* base, std::int64_t size)
{
  constexpr std::int64_t kFlagBytes = 64;
  constexpr std::int64_t kFlagPage = 4096;
  const std::string& mode = caller.model().parameters().window_watch;
  if (mode != "auto")
    return mode == "none" ? PartWatch::None : PartWatch::Now;
  if (flavor != Flavor::Create)
    return size <= kFlagPage ? PartWatch::Now : PartWatch::Lazily;
  if (size > kFlagBytes)
    return PartWatch::Lazily;
  auto address = reinterpret_cast<std::uintptr_t>(base);
  auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  constexpr std::uintptr_t kStackReach = 1 << 20;  // the caller's frames lie just above ours
  if (address > frame && address - frame < kStackReach)
    return PartWatch::Now;
  Dl_info info{};
  bool global = dladdr(base, &info) != 0 && info.dli_fname;  // inside a loaded object
  return global ? PartWatch::Now : PartWatch::Lazily;
}

}  // namespace

CreatedWindow create_window(const CallContext& caller, const Communicator& parent, const WindowMemory& memory_args,
                            const Info& user_hints)
{
  CreatedWindow created;
  // The defaults of the window info keys (MPI-4.1 §12.2.1), then the user's.
  Info hints;
  hints.set("no_locks", "false");
  hints.set("accumulate_ordering", "rar,raw,war,waw");
  hints.set("accumulate_ops", "same_op_no_op");
  hints.merge(user_hints);
  Flavor flavor = memory_args.flavor;
  int context = 0;
  if (int err = coll::agree_context({caller, parent, coll::kContextTag}, context))
    return {err, "no context id for the window's communicator"};
  auto internal = std::make_unique<Communicator>();
  internal->context_id = context;
  internal->group = parent.group;
  internal->owner = caller.world();
  internal->my_rank = parent.my_rank;
  Communicator& ic = caller.model().communicators().add(caller.world(), std::move(internal));

  RmaEngine& engine = caller.model().rma();
  auto w = std::make_unique<Window>();
  w->shared = engine.join(context, parent.group, flavor);
  w->me = parent.my_rank;
  w->comm = ic.handle;
  w->hints = std::move(hints);
  w->locks.assign(static_cast<size_t>(parent.size()), 0);
  w->lock_nocheck.assign(static_cast<size_t>(parent.size()), false);
  ic.name = "internal communicator of " + w->shared->name();
  WindowPart& part = w->shared->parts[static_cast<size_t>(w->me)];
  part.size = flavor == Flavor::Dynamic ? 0 : memory_args.size;
  part.disp_unit = memory_args.disp_unit;
  if (flavor == Flavor::Create)
    part.base = static_cast<char*>(memory_args.base);
  if (flavor == Flavor::Allocate && memory_args.size > 0) {
    part.memory = memory().allocate_shared(static_cast<std::size_t>(memory_args.size), w->shared->name());
    part.base = static_cast<char*>(part.memory.user);
  }
  // Every member's memory is registered before anyone goes on.
  if (int err = coll::barrier({caller, ic, coll::kBarrierTag}))
    return {err, "the window's creation barrier failed"};
  if (flavor == Flavor::Shared)
    place_shared_segment(*w->shared);
  std::string part_name = w->shared->name() + " (rank " + std::to_string(caller.world()) + "'s part)";
  switch (part.size > 0 ? watch_part(caller, flavor, part.base, part.size) : PartWatch::None) {
    case PartWatch::None: break;
    case PartWatch::Now: part.watch = memory().watch(part.base, static_cast<std::size_t>(part.size), part_name); break;
    case PartWatch::Lazily:
      part.watch = memory().watch_lazily(part.base, static_cast<std::size_t>(part.size), part_name);
      break;
  }
  created.base = part.base;
  w->size_attribute = part.size;
  w->disp_unit_attribute = memory_args.disp_unit;
  w->flavor_attribute = flavor_constant(flavor);
  created.handle = engine.windows(caller.world()).add(std::move(w)).handle;
  return created;
}

}  // namespace progsim::mpi::rma
