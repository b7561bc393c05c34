#include "rma/LocalAccessConflicts.hpp"

#include "MpiModel.hpp"
#include "core/CallContext.hpp"
#include "diagnosis/CallSites.hpp"
#include "rma/AccessConflicts.hpp"
#include "rma/Window.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"

#include <unistd.h>

#include <algorithm>

namespace progsim::mpi::rma {

namespace {

bool updates(OpKind kind)
{
  return kind != OpKind::Get;
}

// Whether a load (`write` false) or store of the target conflicts with `a`.
bool conflicts(bool write, OpKind kind, EpochKind epoch)
{
  return write || (updates(kind) && epoch != EpochKind::Lock);
}

std::uintptr_t page_size()
{
  static const auto size = static_cast<std::uintptr_t>(sysconf(_SC_PAGESIZE));
  return size;
}

// The bytes of `member`'s window part that may be guarded without making
// other memory trap (LocalAccessConflicts.hpp); empty when none.
std::pair<std::uintptr_t, std::uintptr_t> guardable(const WindowShared& s, int member)
{
  const WindowPart& part = s.parts[static_cast<size_t>(member)];
  if (!part.base || part.size <= 0 || s.flavor == Flavor::Dynamic)
    return {0, 0};
  auto lo = reinterpret_cast<std::uintptr_t>(part.base);
  std::uintptr_t hi = lo + static_cast<std::uintptr_t>(part.size);
  std::uintptr_t page = page_size();
  if (sim::memory::MemoryWatch::instance().protects(part.watch))
    return {lo, hi};  // its pages trap on every access already
  std::uintptr_t up = (hi + page - 1) & ~(page - 1);
  if (s.flavor == Flavor::Allocate)
    return {lo, up};  // whole pages of its own (MemoryWatch::allocate_shared)
  std::uintptr_t inner_lo = (lo + page - 1) & ~(page - 1), inner_hi = hi & ~(page - 1);
  return inner_lo < inner_hi ? std::make_pair(inner_lo, inner_hi) : std::make_pair(std::uintptr_t{0}, std::uintptr_t{0});
}

const char* epoch_end(EpochKind kind)
{
  switch (kind) {
    case EpochKind::Fence: return "the MPI_Win_fence that ends the epoch";
    case EpochKind::Pscw: return "the MPI_Win_wait that ends the exposure epoch";
    case EpochKind::Lock: return "the origin's MPI_Win_unlock or MPI_Win_flush";
  }
  return "";
}

}  // namespace

LocalAccessConflicts::LocalAccessConflicts()
{
  sim::memory::MemoryWatch::instance().set_guard_listener(
      this, [this](const sim::memory::MemoryWatch::GuardAccess& a) { on_access(a); });
}

// The guards of a run are gone with the run (MemoryWatch::stop); the next
// run's engine may hold the same ids, so they are not removed here.
LocalAccessConflicts::~LocalAccessConflicts()
{
  sim::memory::MemoryWatch::instance().set_guard_listener(this, nullptr);
}

void LocalAccessConflicts::note_operation(const CallContext& caller, Window& w, const Operation& op,
                                          EpochKind kind, std::uint64_t epoch)
{
  if (op.target == w.me)
    return;  // the target's own operation: ordered with its own accesses by the program
  if (kind == EpochKind::Lock && (op.fetches() || op.kind == OpKind::Get))
    return;
  if (!sim::memory::MemoryWatch::instance().enabled())
    return;
  WindowShared& s = *w.shared;
  auto [lo, hi] = guardable(s, op.target);
  if (lo == hi)
    return;
  model_ = &caller.model();
  Target& t = target(w.shared, op.target);
  if (t.reported || t.accesses.size() >= kMaxAccesses || (kind == EpochKind::Fence && epoch < t.fences))
    return;
  bool added = false;
  for (auto [a_lo, a_hi] : target_pieces(op)) {
    a_lo = std::max(a_lo, lo);
    a_hi = std::min(a_hi, hi);
    if (a_lo >= a_hi)
      continue;
    t.accesses.push_back({a_lo, a_hi, caller.world(), op.kind, kind, epoch, op.call, call_site_mark(caller.rank())});
    added = true;
  }
  if (added)
    regard(t);
}

LocalAccessConflicts::Target& LocalAccessConflicts::target(const std::shared_ptr<WindowShared>& window, int member)
{
  Target& t = targets_[{window->id, member}];
  if (!t.window) {
    t.window = window;
    t.member = member;
  }
  return t;
}

// Guards the pages of `t`'s accesses (reads too when a load would conflict);
// the new guard is made before the old one goes, so that pages both cover
// stay protected.
void LocalAccessConflicts::regard(Target& t)
{
  sim::memory::MemoryWatch& memory = sim::memory::MemoryWatch::instance();
  std::uintptr_t lo = 0, hi = 0;
  bool reads_allowed = true;
  // Reported: nothing more is to be found until the records go, and every
  // access to a guarded page would still trap (MPICH's epochtest checks a
  // 256 KiB window element by element in the epoch of a put to it).
  for (const RemoteAccess& a : t.accesses) {
    if (t.reported)
      break;
    lo = hi == 0 ? a.lo : std::min(lo, a.lo);
    hi = std::max(hi, a.hi);
    reads_allowed = reads_allowed && !conflicts(false, a.kind, a.epoch_kind);
  }
  if (lo < hi) {
    auto [part_lo, part_hi] = guardable(*t.window, t.member);
    std::uintptr_t page = page_size();
    lo = std::max(part_lo, lo & ~(page - 1));
    hi = std::min(part_hi, (hi + page - 1) & ~(page - 1));
  }
  if (t.watch >= 0 && lo == t.guard_lo && hi == t.guard_hi && reads_allowed == t.reads_allowed)
    return;
  int watch = -1;
  if (lo < hi) {
    watch = memory.guard(t.window->world_rank(t.member), reinterpret_cast<const void*>(lo), hi - lo, reads_allowed);
    if (watch >= 0)
      by_watch_[watch] = {t.window->id, t.member};
  }
  if (t.watch >= 0) {
    memory.unwatch(t.watch);
    by_watch_.erase(t.watch);
  }
  t.watch = watch;
  t.guard_lo = lo;
  t.guard_hi = hi;
  t.reads_allowed = reads_allowed;
}

void LocalAccessConflicts::forget_if(Key key, const std::function<bool(const RemoteAccess&)>& done)
{
  auto it = targets_.find(key);
  if (it == targets_.end())
    return;
  Target& t = it->second;
  std::size_t before = t.accesses.size();
  t.accesses.erase(std::remove_if(t.accesses.begin(), t.accesses.end(), done), t.accesses.end());
  if (t.accesses.empty())
    t.reported = false;
  if (t.accesses.size() != before)
    regard(t);
}

void LocalAccessConflicts::end_epoch(Window& w, EpochKind kind)
{
  if (kind == EpochKind::Fence)
    target(w.shared, w.me).fences = w.fences;
  forget_if({w.shared->id, w.me}, [kind](const RemoteAccess& a) { return a.epoch_kind == kind; });
}

void LocalAccessConflicts::completed_at_targets(Window& w, int origin, const std::vector<int>& targets)
{
  for (int t : targets)
    forget_if({w.shared->id, t}, [origin](const RemoteAccess& a) {
      return a.epoch_kind == EpochKind::Lock && a.origin == origin;
    });
}

void LocalAccessConflicts::release(Window& w)
{
  auto it = targets_.find({w.shared->id, w.me});
  if (it == targets_.end())
    return;
  if (it->second.watch >= 0) {
    sim::memory::MemoryWatch::instance().unwatch(it->second.watch);
    by_watch_.erase(it->second.watch);
  }
  targets_.erase(it);
}

// In the target rank, right after its access (the trampoline).
void LocalAccessConflicts::on_access(const sim::memory::MemoryWatch::GuardAccess& access)
{
  auto key = by_watch_.find(access.watch);
  if (key == by_watch_.end())
    return;
  Target& t = targets_.at(key->second);
  if (t.reported)
    return;
  auto hit = std::find_if(t.accesses.begin(), t.accesses.end(), [&](const RemoteAccess& a) {
    return access.address >= a.lo && access.address < a.hi && conflicts(access.write, a.kind, a.epoch_kind);
  });
  if (hit == t.accesses.end())
    return;
  t.reported = true;
  const RemoteAccess& a = *hit;
  MpiModel& model = *model_;
  const WindowShared& s = *t.window;
  int me = s.world_rank(t.member);
  std::string epoch;
  switch (a.epoch_kind) {
    case EpochKind::Fence: epoch = "in fence epoch #" + std::to_string(a.epoch); break;
    case EpochKind::Pscw:
      epoch = "in the exposure epoch of rank " + std::to_string(me) + "'s MPI_Win_post #" + std::to_string(a.epoch);
      break;
    case EpochKind::Lock: epoch = "under a passive-target epoch of rank " + std::to_string(a.origin); break;
  }
  std::string where;
  if (model.parameters().call_sites)
    where = sim::memory::describe_rank_location(access.pc, model.simulation().options().program);
  // As for two RMA operations (AccessConflicts): not erroneous since MPI-3.
  StandardError e = undefined_outcome(
      "conflicting local and RMA accesses",
      "a program with a well-defined outcome does not load or store a location of its window memory that an RMA "
      "operation of another process updates (a put or accumulate), nor store one that such an operation reads (a "
      "get), until the synchronization that completes the operation at the target");
  auto byte = access.address;
  e.what = "rank " + std::to_string(me) + (access.write ? " stored to " : " loaded ") +
           describe_target_bytes(s, t.member, byte, byte + 1) + " of " + s.name() + " while " + a.call +
           " of rank " + std::to_string(a.origin) + " to " + describe_target_bytes(s, t.member, a.lo, a.hi) + " " +
           epoch + " was not complete there (until " + epoch_end(a.epoch_kind) + ")";
  e.sites = {{a.origin, a.call, call_site_text(model, a.origin, a.site)},
             {me, access.write ? "store" : "load", where}};
  e.time = model.simulation().rank(me).clock().now();
  model.standard_errors().add(std::move(e));
  regard(t);  // the guard goes
}

}  // namespace progsim::mpi::rma
