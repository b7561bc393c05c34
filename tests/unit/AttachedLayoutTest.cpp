// The replay's layout of a rank's memory attached to a dynamic window
// (traces/replay/AttachedLayout.hpp): regions the trace says were adjacent
// are adjacent, however they were attached, and moves are reported.
#include "traces/replay/AttachedLayout.hpp"

#include <gtest/gtest.h>

#include <map>
#include <stdexcept>

using progsim::traces::AttachedLayout;

namespace {

// Records the moves AttachedLayout reports: each region's latest address.
struct Moves {
  std::map<int, char*> now;
  int count = 0;
  AttachedLayout::Moved callback()
  {
    return [this](int region, char* old_address, char* address) {
      EXPECT_EQ(now.at(region), old_address) << "region " << region;
      now[region] = address;
      ++count;
    };
  }
};

char* attach(AttachedLayout& layout, Moves& moves, int region, long long bytes, int after = -1, int before = -1)
{
  char* address = layout.attach(region, bytes, after, before, moves.callback());
  moves.now[region] = address;
  for (const auto& [id, at] : moves.now) {
    if (layout.address(id)) {
      EXPECT_EQ(layout.address(id), at) << "a move of region " << id << " was not reported";
    }
  }
  return address;
}

}  // namespace

TEST(AttachedLayout, AfterAndBeforeAreAdjacent)
{
  AttachedLayout layout;
  Moves moves;
  attach(layout, moves, 0, 16);
  attach(layout, moves, 1, 8, 0);       // after 0
  attach(layout, moves, 2, 4, -1, 0);   // before 0
  EXPECT_EQ(layout.address(1), layout.address(0) + 16);
  EXPECT_EQ(layout.address(2) + 4, layout.address(0));
  // The memory is the replay's own: every byte of the span can be written.
  for (char* p = layout.address(2); p < layout.address(1) + 8; ++p)
    *p = 1;
}

TEST(AttachedLayout, ARegionJoiningTwoBlocksMakesOneSpan)
{
  AttachedLayout layout;
  Moves moves;
  attach(layout, moves, 0, 16);         // A
  attach(layout, moves, 1, 16, 0);      // B after A
  attach(layout, moves, 3, 16);         // D apart
  attach(layout, moves, 2, 16, 1, 3);   // C after B, before D
  for (int r = 1; r < 4; ++r)
    EXPECT_EQ(layout.address(r), layout.address(r - 1) + 16) << "region " << r;
  // Detached and attached again between A and C, still attached: the same place.
  char* b = layout.address(1);
  layout.detach(1);
  EXPECT_EQ(layout.address(1), nullptr);
  moves.now.erase(1);
  attach(layout, moves, 4, 16, 0, 2);
  EXPECT_EQ(layout.address(4), b);
  EXPECT_EQ(layout.regions(), (std::vector<int>{0, 2, 3, 4}));
}

TEST(AttachedLayout, GrowsGeometrically)
{
  AttachedLayout layout;
  Moves moves;
  attach(layout, moves, 0, 64);
  int grown = 0;  // attaches that moved the block
  for (int r = 1; r < 1024; ++r) {
    int before = moves.count;
    attach(layout, moves, r, 64, r - 1);
    grown += moves.count > before;
  }
  EXPECT_EQ(layout.address(1023), layout.address(0) + 1023 * 64);
  // log2(1024) = 10 times, not 1023.
  EXPECT_EQ(grown, 10);
}

TEST(AttachedLayout, RefusesWhatNoProgramCouldHaveAttached)
{
  AttachedLayout layout;
  Moves moves;
  attach(layout, moves, 0, 16);
  attach(layout, moves, 1, 16, 0);
  EXPECT_THROW(layout.attach(0, 16, -1, -1, moves.callback()), std::invalid_argument);  // attached already
  EXPECT_THROW(layout.attach(2, 16, 7, -1, moves.callback()), std::invalid_argument);   // no region 7
  EXPECT_THROW(layout.attach(2, 16, -1, 7, moves.callback()), std::invalid_argument);
  EXPECT_THROW(layout.attach(2, 8, 0, 1, moves.callback()), std::invalid_argument);     // 0 and 1 are 0 bytes apart
}
