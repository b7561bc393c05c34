#include "core/Group.hpp"
#include "core/HandleTable.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <optional>

using namespace progsim::mpi;

TEST(HandleTable, LowestFreeIndexIsReusedFirst)
{
  HandleTable<std::optional<int>> table(2);  // 0 and 1 reserved
  EXPECT_EQ(table.insert(10), 2u);
  EXPECT_EQ(table.insert(11), 3u);
  EXPECT_EQ(table.insert(12), 4u);
  EXPECT_EQ(table.take(4), 12);
  EXPECT_EQ(table.take(2), 10);
  EXPECT_FALSE(table.holds(2));
  EXPECT_EQ(table.live(), 1u);
  EXPECT_EQ(table.insert(13), 2u) << "the lowest free index, not the last freed";
  EXPECT_EQ(table.insert(14), 4u);
  EXPECT_EQ(table.insert(15), 5u);
}

TEST(HandleTable, LastFreedIndexIsReusedFirst)
{
  HandleTable<std::shared_ptr<int>, HandleReuse::LastFreedFirst> table(1);
  for (int i = 1; i <= 3; ++i)
    EXPECT_EQ(table.insert(std::make_shared<int>(i)), static_cast<std::uint32_t>(i));
  table.take(1);
  table.take(3);
  EXPECT_EQ(table.insert(std::make_shared<int>(4)), 3u) << "the last freed index first (as MPICH)";
  EXPECT_EQ(table.insert(std::make_shared<int>(5)), 1u);
  EXPECT_EQ(table.live(), 3u);
}

TEST(HandleTable, ReservedIndicesAreNeitherHandedOutNorHeld)
{
  HandleTable<std::optional<int>> table(2);
  *table.slot(1) = 7;  // a predefined object
  EXPECT_FALSE(table.holds(1));
  EXPECT_FALSE(table.holds(0));
  EXPECT_EQ(table.live(), 0u);
  EXPECT_EQ(table.slot(2), nullptr) << "beyond the table";
  EXPECT_EQ(table.insert(8), 2u);
  EXPECT_EQ(**table.slot(1), 7);
}

TEST(HandleTable, ReleasedSlotStaysReadableUntilReused)
{
  HandleTable<int, HandleReuse::LastFreedFirst> table(0);
  std::uint32_t a = table.insert(42);
  table.release(a);
  EXPECT_EQ(table.live(), 0u);
  EXPECT_EQ(*table.slot(a), 42) << "a freed datatype keeps its type for operations still using it";
  EXPECT_EQ(table.insert(43), a);
  EXPECT_EQ(*table.slot(a), 43);
}

TEST(GroupTable, FreedHandleIsReusedLowestFirst)
{
  GroupTable groups;
  auto group = std::make_shared<const Group>(std::vector<int>{0, 1});
  MPI_Group a = groups.insert(group), b = groups.insert(group), c = groups.insert(group);
  EXPECT_TRUE(groups.erase(c));
  EXPECT_TRUE(groups.erase(a));
  EXPECT_FALSE(groups.erase(a)) << "already freed";
  EXPECT_EQ(groups.find(a), nullptr);
  EXPECT_EQ(groups.insert(group), a);
  EXPECT_EQ(groups.insert(group), c);
  EXPECT_EQ(groups.find(b), group);
  EXPECT_EQ(groups.live(), 3u);
}
