// Rank stacks from one mapping (sim/memory/StackArena.hpp): while open, a
// calloc of the slot size returns a page-aligned, zeroed slot whose untouched
// pages are not resident; free gives it back; other sizes come from the heap.
#include "sim/memory/StackArena.hpp"

#include <gtest/gtest.h>

#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <vector>

using progsim::sim::memory::StackArena;

namespace {

// Through a volatile pointer: the compiler may not fold or drop the calls.
void* (*volatile g_calloc)(std::size_t, std::size_t) = std::calloc;

const std::size_t kPage = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
const std::size_t kSlot = 16 * kPage;

// Unused under AddressSanitizer, whose build skips the calloc tests below.
[[maybe_unused]] std::size_t resident_pages(void* begin, std::size_t bytes)
{
  std::vector<unsigned char> pages(bytes / kPage);
  EXPECT_EQ(::mincore(begin, bytes, pages.data()), 0);
  std::size_t n = 0;
  for (unsigned char p : pages)
    n += p & 1;
  return n;
}

// The arena's own bookkeeping, called directly: independent of the
// allocator, so it runs under AddressSanitizer too (the library there still
// opens and closes the arena around the actors' creation, it only never
// serves a calloc).
TEST(StackArena, TakesSlotsInOrderAndUnmapsAfterTheLastIsBack)
{
  ASSERT_TRUE(StackArena::open(2, kSlot));
  EXPECT_FALSE(StackArena::open(2, kSlot));  // one arena at a time
  EXPECT_EQ(StackArena::take(kSlot / 2), nullptr);  // not the slot size
  auto* a = static_cast<unsigned char*>(StackArena::take(kSlot));
  auto* b = static_cast<unsigned char*>(StackArena::take(kSlot));
  EXPECT_EQ(StackArena::take(kSlot), nullptr);  // full
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % kPage, 0u);
  EXPECT_EQ(b, a + kSlot);
  a[0] = 1;
  b[kSlot - 1] = 2;
  StackArena::close();
  EXPECT_EQ(StackArena::take(kSlot), nullptr);  // closed
  // Slots in use outlive close(): the stacks of ranks still running.
  EXPECT_EQ(a[0], 1);
  EXPECT_EQ(b[kSlot - 1], 2);
  int elsewhere = 0;
  EXPECT_FALSE(StackArena::give_back(&elsewhere));
  EXPECT_TRUE(StackArena::give_back(a));
  EXPECT_FALSE(StackArena::open(1, kSlot));  // b still holds the mapping
  EXPECT_TRUE(StackArena::give_back(b));
  EXPECT_FALSE(StackArena::give_back(b));  // the mapping went with the last slot
  ASSERT_TRUE(StackArena::open(1, kSlot));  // so a new arena can open
  StackArena::close();
}

TEST(StackArena, RefusesSizesThatAreNotWholePages)
{
  EXPECT_FALSE(StackArena::open(2, kPage + 16));
  EXPECT_FALSE(StackArena::open(0, kSlot));
}

// Through calloc: progsim's allocator entry points (AllocatorCalls.cpp) are
// not built under AddressSanitizer, which replaces the allocator, so there
// the ranks' stacks come from ASan's heap and these tests do not apply.
#if defined(__SANITIZE_ADDRESS__)
TEST(StackArena, CallocNotServedUnderAddressSanitizer)
{
  GTEST_SKIP() << "AddressSanitizer replaces the allocator: stacks come from its heap";
}
#else
TEST(StackArena, ServesSlotSizedCallocsWhileOpen)
{
  ASSERT_TRUE(StackArena::open(3, kSlot));
  auto* a = static_cast<unsigned char*>(g_calloc(kSlot, 1));
  void* other = g_calloc(kSlot / 2, 1);  // not the slot size: the heap
  auto* b = static_cast<unsigned char*>(g_calloc(1, kSlot));
  StackArena::close();
  void* after = g_calloc(kSlot, 1);  // closed: the heap
  ASSERT_NE(a, nullptr);
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a) % kPage, 0u);
  EXPECT_EQ(b, a + kSlot);  // consecutive slots
  // Untouched, nothing is resident; written like a stack (down from the
  // top), only the pages used are, and they read as zero elsewhere.
  EXPECT_EQ(resident_pages(a, kSlot), 0u);
  a[kSlot - 1] = 1;
  a[kSlot - kPage - 1] = 1;
  EXPECT_EQ(resident_pages(a, kSlot), 2u);
  for (std::size_t i = kSlot - 2 * kPage; i < kSlot; ++i) {
    if (i != kSlot - 1 && i != kSlot - kPage - 1) {
      ASSERT_EQ(a[i], 0) << i;
    }
  }
  // Given back: the pages go, the slot is not served again.
  std::free(a);
  EXPECT_EQ(resident_pages(b, kSlot), 0u);
  std::free(b);  // the last slot: the mapping goes
  std::free(other);
  std::free(after);
}

TEST(StackArena, FullArenaFallsBackToTheHeap)
{
  ASSERT_TRUE(StackArena::open(1, kSlot));
  void* first = g_calloc(kSlot, 1);
  void* second = g_calloc(kSlot, 1);
  StackArena::close();
  ASSERT_NE(first, nullptr);
  ASSERT_NE(second, nullptr);
  EXPECT_NE(second, static_cast<char*>(first) + kSlot);
  std::free(second);
  std::free(first);
}
#endif

}  // namespace
