#include "rma/AccessConflicts.hpp"

#include "MpiModel.hpp"
#include "core/CallContext.hpp"
#include "diagnosis/CallSites.hpp"
#include "rma/Window.hpp"
#include "sim/Rank.hpp"

#include <cstdio>
#include <utility>
#include <vector>

namespace progsim::mpi::rma {

namespace {

bool updates(OpKind kind)
{
  return kind != OpKind::Get;
}

bool accumulates(OpKind kind)
{
  return kind != OpKind::Put && kind != OpKind::Get;
}

// MPI-4.1 §12.7 rule 2 and its exception. Operations of one origin are
// left out: the standard leaves them unordered within an epoch (so two puts
// of one origin to one location conflict too), but progsim, as MPICH,
// applies them in issue order and programs rely on it (MPICH's
// overlap_wins_put, tests/programs/rma_ordering.c): not reported, to stay
// free of complaints about programs every common MPI runs as meant.
bool conflicting(const TargetAccess& a, const TargetAccess& b)
{
  if (a.origin == b.origin || (!updates(a.kind) && !updates(b.kind)))
    return false;
  return !(accumulates(a.kind) && accumulates(b.kind) && a.element_index == b.element_index);
}

}  // namespace

bool EpochAccesses::enter(std::uint64_t epoch)
{
  if (epoch < epoch_)
    return false;
  if (epoch == epoch_)
    return true;
  epoch_ = epoch;
  accesses_.clear();
  longest_ = 0;
  reported = false;
  return true;
}

void EpochAccesses::forget(int origin)
{
  for (auto it = accesses_.begin(); it != accesses_.end();)
    it = it->second.origin == origin ? accesses_.erase(it) : std::next(it);
}

const TargetAccess* EpochAccesses::conflict(const TargetAccess& a) const
{
  // Accesses starting at most `longest_` bytes before `a` may reach it.
  auto it = accesses_.lower_bound(a.lo > longest_ ? a.lo - longest_ : 0);
  for (; it != accesses_.end() && it->first < a.hi; ++it)
    if (it->second.hi > a.lo && conflicting(it->second, a))
      return &it->second;
  return nullptr;
}

void EpochAccesses::add(const TargetAccess& a)
{
  accesses_.emplace(a.lo, a);
  longest_ = std::max(longest_, a.hi - a.lo);
}

void EpochAccesses::move(std::uintptr_t from, std::uintptr_t bytes, std::uintptr_t to)
{
  // Taken out first: `to` is memory of its own (AttachedRegions.hpp), but
  // the map is not walked while it changes.
  std::vector<TargetAccess> moved;
  for (auto it = accesses_.lower_bound(from); it != accesses_.end() && it->first - from < bytes;) {
    moved.push_back(it->second);
    it = accesses_.erase(it);
  }
  for (TargetAccess& a : moved) {
    a.lo = a.lo - from + to;
    a.hi = a.hi - from + to;
    accesses_.emplace(a.lo, a);
  }
}

namespace {

// The accesses kept for `target` in `by_target`, grown to the window's size.
EpochAccesses& accesses_of(std::vector<EpochAccesses>& by_target, const WindowShared& s, int target)
{
  if (by_target.size() < static_cast<size_t>(s.size()))
    by_target.resize(static_cast<size_t>(s.size()));
  return by_target[static_cast<size_t>(target)];
}

// Checks `op` against `accesses` (concurrent with it), then records it
// unless `record` is false. `epoch` names them in the finding: "in fence
// epoch #2".
void check_against(const CallContext& caller, Window& w, const Operation& op, EpochAccesses& accesses,
                   const std::string& epoch, bool record = true)
{
  WindowShared& s = *w.shared;
  if (accesses.reported || accesses.full())
    return;
  std::vector<TargetAccess> mine;
  for (auto [lo, hi] : target_pieces(op))
    mine.push_back({lo, hi, caller.world(), op.kind, op.element_index, op.call, call_site_mark(caller.rank())});
  for (const TargetAccess& a : mine) {
    const TargetAccess* earlier = accesses.conflict(a);
    if (!earlier)
      continue;
    accesses.reported = true;
    std::uintptr_t lo = std::max(a.lo, earlier->lo), hi = std::min(a.hi, earlier->hi);
    StandardError e = undefined_outcome(
        "conflicting RMA accesses", "a program with a well-defined outcome makes no concurrent RMA accesses to one "
                                    "window location of which one updates it (a put or accumulate), accumulates with "
                                    "the same predefined datatype excepted");
    e.what = std::string(earlier->call) + " of rank " + std::to_string(earlier->origin) + " and " + op.call +
             " of rank " + std::to_string(caller.world()) + " both access " + describe_target_bytes(s, op.target, lo, hi) + " " +
             epoch + " of " + s.name();
    MpiModel& model = caller.model();
    e.sites = {{earlier->origin, earlier->call, call_site_text(model, earlier->origin, earlier->site)},
               current_site(caller)};
    e.time = caller.rank() ? caller.rank()->clock().now() : 0;
    model.standard_errors().add(std::move(e));
    return;
  }
  if (record)
    for (const TargetAccess& a : mine)
      accesses.add(a);
}

}  // namespace

std::vector<std::pair<std::uintptr_t, std::uintptr_t>> target_pieces(const Operation& op)
{
  std::vector<std::pair<std::uintptr_t, std::uintptr_t>> pieces;
  const dt::Datatype& t = *op.target_type;
  if (op.target_count <= 0 || t.size() == 0)
    return pieces;
  auto base = reinterpret_cast<std::uintptr_t>(op.target_addr);
  auto at = [base](std::int64_t offset) { return base + static_cast<std::uintptr_t>(offset); };
  if (t.is_dense()) {
    pieces.emplace_back(at(t.true_lb()), at(t.true_lb() + op.target_count * t.size()));
  } else if (op.target_count * t.segment_count() <= EpochAccesses::kMaxPieces) {
    for (std::int64_t i = 0; i < op.target_count; ++i)
      t.for_each_segment([&](std::int64_t offset, std::int64_t length) {
        std::int64_t start = i * t.extent() + offset;
        pieces.emplace_back(at(start), at(start + length));
      });
  }
  return pieces;
}

StandardError undefined_outcome(std::string rule, std::string requirement)
{
  // Not erroneous since MPI-3: "the result ... is undefined", and such
  // operations "must not generate an MPI exception" (MPI-4.1 §12.7).
  StandardError e;
  e.kind = StandardError::Kind::UndefinedOutcome;
  e.rule = std::move(rule);
  e.section = "MPI-4.1 §12.7";
  e.requirement = std::move(requirement);
  return e;
}

std::string describe_target_bytes(const WindowShared& s, int target, std::uintptr_t lo, std::uintptr_t hi)
{
  const WindowPart& part = s.parts[static_cast<size_t>(target)];
  auto base = reinterpret_cast<std::uintptr_t>(part.base);
  std::string owner = "rank " + std::to_string(s.world_rank(target)) + "'s window memory";
  // Attached memory: from the start of the region holding the first byte,
  // numbered among the member's attached regions (in attach order), as
  // the run and its replay both have them: their addresses differ from
  // run to run (heap, ASLR), which made two runs' reports differ.
  for (std::size_t i = 0; i < part.attached.size(); ++i) {
    auto r_lo = reinterpret_cast<std::uintptr_t>(part.attached[i].base);
    if (lo >= r_lo && lo - r_lo < static_cast<std::uintptr_t>(part.attached[i].size))
      return "bytes [" + std::to_string(lo - r_lo) + ", " + std::to_string(hi - r_lo) + ") of rank " +
             std::to_string(s.world_rank(target)) + "'s attached region #" + std::to_string(i) + " (" +
             std::to_string(part.attached[i].size) + " bytes)";
  }
  if (part.base && lo >= base && hi <= base + static_cast<std::uintptr_t>(part.size))
    return "bytes [" + std::to_string(lo - base) + ", " + std::to_string(hi - base) + ") of " + owner;
  char text[64];
  std::snprintf(text, sizeof text, "bytes [0x%jx, 0x%jx) of ", static_cast<std::uintmax_t>(lo),
                static_cast<std::uintmax_t>(hi));
  return text + owner;
}

void check_fence_conflicts(const CallContext& caller, Window& w, const Operation& op)
{
  EpochAccesses& accesses = accesses_of(w.shared->fence_accesses, *w.shared, op.target);
  accesses.enter(w.fences);
  check_against(caller, w, op, accesses, "in fence epoch #" + std::to_string(w.fences));
}

void note_post(Window& w, const std::vector<int>& origins)
{
  WindowShared& s = *w.shared;
  if (s.post_count.size() < static_cast<size_t>(s.size()))
    s.post_count.resize(static_cast<size_t>(s.size()), 0);
  std::uint64_t number = ++s.post_count[static_cast<size_t>(w.me)];
  for (int world : origins)
    s.posts_naming[{w.me, s.group->local_rank(world)}].push_back(number);
}

std::uint64_t matching_post(Window& w, int target)
{
  // The origin's j-th access epoch to the target matches the target's j-th
  // post naming it (MPI-4.1 §12.5.2).
  WindowShared& s = *w.shared;
  std::uint64_t j = w.state().access_epochs[static_cast<size_t>(target)];
  auto posts = s.posts_naming.find({target, w.me});
  if (j == 0 || posts == s.posts_naming.end() || posts->second.size() < j)
    return 0;
  return posts->second[j - 1];
}

void check_pscw_conflicts(const CallContext& caller, Window& w, const Operation& op)
{
  WindowShared& s = *w.shared;
  std::uint64_t post = matching_post(w, op.target);
  if (post == 0)
    return;  // not posted yet: the epoch it belongs to is unknown
  EpochAccesses& accesses = accesses_of(s.pscw_accesses, s, op.target);
  if (!accesses.enter(post))
    return;
  check_against(caller, w, op, accesses,
                "in the exposure epoch of rank " + std::to_string(s.world_rank(op.target)) + "'s MPI_Win_post #" +
                    std::to_string(post));
}

void check_lock_conflicts(const CallContext& caller, Window& w, const Operation& op)
{
  if (!w.lock_all && w.locks[static_cast<size_t>(op.target)] != MPI_LOCK_SHARED)
    return;  // an exclusive lock excludes every other epoch at the target
  // A fetching accumulate's result shows the program that its update was
  // applied at the target: programs order later accesses on it (a ring of
  // MPI_Rget_accumulate and MPI_Wait passing a token, MPICH's rma/reqops)
  // without a flush, so it is checked but not kept.
  bool fetches = op.kind == OpKind::GetAccumulate || op.kind == OpKind::CompareAndSwap;
  check_against(caller, w, op, accesses_of(w.shared->lock_accesses, *w.shared, op.target),
                "under shared locks held at once", !fetches);
}

void move_accesses(WindowShared& s, int target, std::uintptr_t from, std::uintptr_t bytes, std::uintptr_t to)
{
  for (std::vector<EpochAccesses>* kind : {&s.fence_accesses, &s.pscw_accesses, &s.lock_accesses})
    if (static_cast<std::size_t>(target) < kind->size())
      (*kind)[static_cast<std::size_t>(target)].move(from, bytes, to);
}

void forget_lock_accesses(Window& w, int origin_world, const std::vector<int>& targets)
{
  WindowShared& s = *w.shared;
  for (int t : targets)
    if (static_cast<size_t>(t) < s.lock_accesses.size())
      s.lock_accesses[static_cast<size_t>(t)].forget(origin_world);
}

}  // namespace progsim::mpi::rma
