// WatchTable::resize_guard moves a guard by (un)protecting only the pages
// it gains or loses, and leaves protected the pages another watch needs.
// The protection of each page is read back from /proc/self/maps.
#include "sim/memory/WatchTable.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>

using progsim::sim::memory::WatchTable;

namespace {

// "rw-", "r--" or "---": the protection of the page at `address`.
std::string protection(std::uintptr_t address)
{
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    std::istringstream in(line);
    std::uintptr_t lo = 0, hi = 0;
    char dash = 0;
    std::string perms;
    in >> std::hex >> lo >> dash >> hi >> perms;
    if (address >= lo && address < hi)
      return perms.substr(0, 3);
  }
  return "?";
}

class WatchTableResize : public ::testing::Test {
protected:
  void SetUp() override
  {
    page = WatchTable::page_size();
    void* p = ::mmap(nullptr, 8 * page, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    ASSERT_NE(p, MAP_FAILED);
    base = reinterpret_cast<std::uintptr_t>(p);
  }
  void TearDown() override
  {
    WatchTable::remove_all();
    ::munmap(reinterpret_cast<void*>(base), 8 * page);
  }
  std::string pages()  // one letter per page: w (read-write), r (read-only), - (none)
  {
    std::string s;
    for (int i = 0; i < 8; ++i) {
      std::string p = protection(base + static_cast<std::uintptr_t>(i) * page);
      s += p == "rw-" ? 'w' : p == "r--" ? 'r' : p == "---" ? '-' : '?';
    }
    return s;
  }
  std::uintptr_t page = 0, base = 0;
};

TEST_F(WatchTableResize, GrowsAndShrinksByTheChangedPages)
{
  int id = WatchTable::add_guard(base + 10, 2 * page - 20, 0, false);  // pages 0-1
  ASSERT_GE(id, 0);
  EXPECT_EQ(pages(), "--wwwwww");
  ASSERT_TRUE(WatchTable::resize_guard(id, base + page + 8, 3 * page));  // pages 1-4
  EXPECT_EQ(pages(), "w----www");
  EXPECT_EQ(WatchTable::find_guard(base + page + 8, true), id);
  EXPECT_EQ(WatchTable::find_guard(base + 10, true), -1);  // no longer guarded
  ASSERT_TRUE(WatchTable::resize_guard(id, base + 6 * page, 1));  // page 6 only
  EXPECT_EQ(pages(), "wwwwww-w");
  WatchTable::remove(id);
  EXPECT_EQ(pages(), "wwwwwwww");
}

TEST_F(WatchTableResize, KeepsThePagesAnotherWatchNeeds)
{
  int send = WatchTable::add_guard(base, page, 1, true);  // page 0, reads allowed
  int recv = WatchTable::add_guard(base, 2 * page, 0, false);  // pages 0-1
  ASSERT_GE(send, 0);
  ASSERT_GE(recv, 0);
  EXPECT_EQ(pages(), "--wwwwww");
  ASSERT_TRUE(WatchTable::resize_guard(recv, base + page, page));  // leaves page 0 to the send guard
  EXPECT_EQ(pages(), "r-wwwwww");
  EXPECT_FALSE(WatchTable::resize_guard(recv, base, 0));  // no range
  WatchTable::remove(send);
  WatchTable::remove(recv);
  EXPECT_EQ(pages(), "wwwwwwww");
}

TEST_F(WatchTableResize, RefusesWhatIsNotAnActiveGuard)
{
  int watch = WatchTable::add(base, page);  // a watch, not a guard
  ASSERT_GE(watch, 0);
  EXPECT_FALSE(WatchTable::resize_guard(watch, base, 2 * page));
  EXPECT_EQ(pages(), "-wwwwwww");
}

}  // namespace
