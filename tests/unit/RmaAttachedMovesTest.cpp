// Attached memory of a dynamic window that a replay moves (branch
// attachwatch, mpi_model/rma/AttachedRegions.hpp): the region's base, the
// accesses the conflict checks keep, and operations under way follow it;
// a conflict names attached bytes from the region's start.
#include "rma/AccessConflicts.hpp"
#include "rma/AttachedRegions.hpp"
#include "rma/Operation.hpp"
#include "rma/Window.hpp"

#include "datatype/TypeConstructors.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <vector>

namespace progsim::mpi::rma {
namespace {

std::uintptr_t at(const void* p, std::size_t offset = 0)
{
  return reinterpret_cast<std::uintptr_t>(p) + offset;
}

TargetAccess put(std::uintptr_t lo, std::uintptr_t hi, int origin)
{
  TargetAccess a;
  a.lo = lo;
  a.hi = hi;
  a.origin = origin;
  a.kind = OpKind::Put;
  a.call = "MPI_Put";
  return a;
}

// A dynamic window of 3 members, rank 1's part with `attached` regions.
std::shared_ptr<WindowShared> dynamic_window(std::vector<AttachedRegion> attached)
{
  auto s = std::make_shared<WindowShared>();
  s->id = 7;
  s->flavor = Flavor::Dynamic;
  s->group = std::make_shared<const Group>(std::vector<int>{0, 1, 2});
  s->parts.resize(3);
  s->parts[1].attached = std::move(attached);
  return s;
}

TEST(RmaAttachedMoves, AccessesMovedWithTheirMemoryConflictThereOnly)
{
  std::vector<char> old_memory(16), new_memory(16), other(16);
  EpochAccesses accesses;
  accesses.enter(1);
  accesses.add(put(at(old_memory.data(), 4), at(old_memory.data(), 8), 0));
  accesses.add(put(at(other.data(), 0), at(other.data(), 4), 0));
  accesses.move(at(old_memory.data()), 16, at(new_memory.data()));
  // Rank 2's put to the same bytes after the move: the conflict the
  // program had (MPI-4.1 §12.7, rule 2).
  const TargetAccess* found = accesses.conflict(put(at(new_memory.data(), 6), at(new_memory.data(), 10), 2));
  ASSERT_NE(found, nullptr);
  EXPECT_EQ(found->lo, at(new_memory.data(), 4));
  EXPECT_EQ(found->hi, at(new_memory.data(), 8));
  // Nothing is left where the memory was; what did not move stays.
  EXPECT_EQ(accesses.conflict(put(at(old_memory.data(), 0), at(old_memory.data(), 16), 2)), nullptr);
  EXPECT_NE(accesses.conflict(put(at(other.data(), 2), at(other.data(), 3), 2)), nullptr);
  // Bytes beside the moved access do not conflict.
  EXPECT_EQ(accesses.conflict(put(at(new_memory.data(), 8), at(new_memory.data(), 16), 2)), nullptr);
}

TEST(RmaAttachedMoves, MovingARegionMovesItsBaseAndEveryKindOfEpochsAccesses)
{
  std::vector<char> old_memory(16), new_memory(16);
  std::vector<AttachedRegion> regions{{old_memory.data(), 16, -1}};
  Window w;
  w.shared = dynamic_window(regions);
  w.me = 1;
  for (auto* kind : {&w.shared->fence_accesses, &w.shared->pscw_accesses, &w.shared->lock_accesses}) {
    kind->resize(3);
    (*kind)[1].add(put(at(old_memory.data(), 0), at(old_memory.data(), 4), 0));
  }
  EXPECT_FALSE(move_attached(w, 1, new_memory.data(), old_memory.data()));  // nothing attached there
  ASSERT_TRUE(move_attached(w, 1, old_memory.data(), new_memory.data()));
  EXPECT_EQ(w.shared->parts[1].attached[0].base, new_memory.data());
  ASSERT_EQ(w.shared->parts[1].moved.size(), 1u);
  for (auto* kind : {&w.shared->fence_accesses, &w.shared->pscw_accesses, &w.shared->lock_accesses}) {
    EXPECT_NE((*kind)[1].conflict(put(at(new_memory.data(), 2), at(new_memory.data(), 3), 2)), nullptr);
    EXPECT_EQ((*kind)[1].conflict(put(at(old_memory.data(), 2), at(old_memory.data(), 3), 2)), nullptr);
  }
}

TEST(RmaAttachedMoves, AnOperationUnderWayIsAppliedWhereItsRegionWent)
{
  // The region moved twice (its block grew twice) before the operation,
  // issued to its first place, is applied; another, issued after the first
  // move, goes the rest of the way; a third is to memory that never moved.
  std::vector<int> first(8, 0), second(8, 0), third(8, 0), apart(4, 0);
  auto s = dynamic_window({{reinterpret_cast<char*>(third.data()), 32, -1}});
  s->parts[1].moved = {{reinterpret_cast<char*>(first.data()), 32, reinterpret_cast<char*>(second.data())},
                       {reinterpret_cast<char*>(second.data()), 32, reinterpret_cast<char*>(third.data())}};
  auto put_ints = [&](std::vector<int>& target, int index, std::vector<int> values) {
    Operation op;
    op.kind = OpKind::Put;
    op.window = s;
    op.target = 1;
    op.origin_addr = values.data();
    op.origin_count = static_cast<std::int64_t>(values.size());
    op.origin_type = dt::predefined(dt::PrimitiveId::kINT);
    op.target_addr = reinterpret_cast<char*>(target.data() + index);
    op.target_count = op.origin_count;
    op.target_type = op.origin_type;
    pack_origin(op);
    apply_at_target(op);
  };
  put_ints(first, 2, {5, 6});
  put_ints(second, 6, {7, 8});
  put_ints(apart, 1, {9});
  EXPECT_EQ(third, (std::vector<int>{0, 0, 5, 6, 0, 0, 7, 8}));
  EXPECT_EQ(first, std::vector<int>(8, 0));
  EXPECT_EQ(second, std::vector<int>(8, 0));
  EXPECT_EQ(apart, (std::vector<int>{0, 9, 0, 0}));
}

TEST(RmaAttachedMoves, AttachedBytesAreNamedFromTheirRegionsStart)
{
  // Not by address: a run's heap addresses change from run to run, and a
  // replay's are others again.
  std::vector<char> a(16), b(16);
  auto s = dynamic_window({{a.data(), 16, -1}, {b.data(), 16, -1}});
  EXPECT_EQ(describe_target_bytes(*s, 1, at(b.data(), 4), at(b.data(), 8)),
            "bytes [4, 8) of rank 1's attached region #1 (16 bytes)");
  EXPECT_EQ(describe_target_bytes(*s, 1, at(a.data(), 12), at(a.data(), 20)),
            "bytes [12, 20) of rank 1's attached region #0 (16 bytes)");
}

}  // namespace
}  // namespace progsim::mpi::rma
