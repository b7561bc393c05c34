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

// The contiguous target byte ranges of `op`; empty when there are too many
// pieces to check.
std::vector<std::pair<std::uintptr_t, std::uintptr_t>> pieces_of(const Operation& op)
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

// "bytes [8, 12) of rank 0's window memory"
std::string location(const WindowShared& s, int target, std::uintptr_t lo, std::uintptr_t hi)
{
  const WindowPart& part = s.parts[static_cast<size_t>(target)];
  auto base = reinterpret_cast<std::uintptr_t>(part.base);
  std::string owner = "rank " + std::to_string(s.world_rank(target)) + "'s window memory";
  if (part.base && lo >= base && hi <= base + static_cast<std::uintptr_t>(part.size))
    return "bytes [" + std::to_string(lo - base) + ", " + std::to_string(hi - base) + ") of " + owner;
  char text[64];
  std::snprintf(text, sizeof text, "bytes [0x%jx, 0x%jx) of ", static_cast<std::uintmax_t>(lo),
                static_cast<std::uintmax_t>(hi));
  return text + owner;
}

}  // namespace

void EpochAccesses::enter(std::uint64_t epoch)
{
  if (epoch <= epoch_)
    return;
  epoch_ = epoch;
  accesses_.clear();
  longest_ = 0;
  reported = false;
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

void check_fence_conflicts(const CallContext& caller, Window& w, const Operation& op)
{
  WindowShared& s = *w.shared;
  if (s.fence_accesses.size() < static_cast<size_t>(s.size()))
    s.fence_accesses.resize(static_cast<size_t>(s.size()));
  EpochAccesses& accesses = s.fence_accesses[static_cast<size_t>(op.target)];
  accesses.enter(w.fences);
  if (accesses.reported || accesses.full())
    return;
  std::vector<TargetAccess> mine;
  for (auto [lo, hi] : pieces_of(op))
    mine.push_back({lo, hi, caller.world(), op.kind, op.element_index, op.call, call_site_mark(caller.rank())});
  for (const TargetAccess& a : mine) {
    const TargetAccess* earlier = accesses.conflict(a);
    if (!earlier)
      continue;
    accesses.reported = true;
    std::uintptr_t lo = std::max(a.lo, earlier->lo), hi = std::min(a.hi, earlier->hi);
    StandardError e;
    e.rule = "conflicting RMA accesses";
    e.section = "MPI-4.1 §12.7";
    e.requirement = "a window location updated by a put or accumulate is not accessed by another RMA operation "
                    "of the same epoch (concurrent accumulates with the same predefined datatype excepted)";
    e.what = std::string(earlier->call) + " of rank " + std::to_string(earlier->origin) + " and " + op.call +
             " of rank " + std::to_string(caller.world()) + " both access " + location(s, op.target, lo, hi) +
             " in fence epoch #" + std::to_string(w.fences) + " of " + s.name();
    MpiModel& model = caller.model();
    e.sites = {{earlier->origin, earlier->call, call_site_text(model, earlier->origin, earlier->site)},
               current_site(caller)};
    e.time = caller.rank() ? caller.rank()->clock().now() : 0;
    model.standard_errors().add(std::move(e));
    return;
  }
  for (const TargetAccess& a : mine)
    accesses.add(a);
}

}  // namespace progsim::mpi::rma
