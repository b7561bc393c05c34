// progsim's library defines the C allocator's entry points as counted calls
// of glibc's own (sim/memory/AllocatorCalls.hpp): they must keep the C and
// POSIX semantics every program and library relies on.
#include "sim/memory/AllocatorCalls.hpp"

#include <gtest/gtest.h>

#include <cerrno>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <malloc.h>

using progsim::sim::memory::AllocatorCalls;

namespace {

// Through a volatile pointer: the compiler may not fold or drop the calls.
void* (*volatile g_malloc)(std::size_t) = std::malloc;

TEST(AllocatorCalls, NotInsideBetweenCalls)
{
  void* p = g_malloc(100);
  EXPECT_FALSE(AllocatorCalls::inside());
  std::free(p);
  EXPECT_FALSE(AllocatorCalls::inside());
}

TEST(AllocatorCalls, CallocZeroesAndReallocKeepsContents)
{
  auto* zeroed = static_cast<unsigned char*>(std::calloc(1000, 3));
  ASSERT_NE(zeroed, nullptr);
  for (int i = 0; i < 3000; ++i)
    ASSERT_EQ(zeroed[i], 0) << i;
  std::memset(zeroed, 7, 3000);
  auto* grown = static_cast<unsigned char*>(std::realloc(zeroed, 1 << 20));
  ASSERT_NE(grown, nullptr);
  for (int i = 0; i < 3000; ++i)
    ASSERT_EQ(grown[i], 7) << i;
  std::free(grown);
}

TEST(AllocatorCalls, CallocOverflowFails)
{
  errno = 0;
  std::size_t volatile count = SIZE_MAX / 2;  // volatile: the compiler would refuse the constant product
  EXPECT_EQ(std::calloc(count, 4), nullptr);
  EXPECT_EQ(errno, ENOMEM);
}

TEST(AllocatorCalls, AlignedAllocations)
{
  void* p = nullptr;
  ASSERT_EQ(posix_memalign(&p, 4096, 100), 0);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(p) % 4096, 0u);
  std::free(p);
  EXPECT_EQ(posix_memalign(&p, 3 * sizeof(void*), 100), EINVAL);
  EXPECT_EQ(posix_memalign(&p, 2, 100), EINVAL);  // not a multiple of sizeof(void*)

  void* q = aligned_alloc(256, 512);
  ASSERT_NE(q, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(q) % 256, 0u);
  std::free(q);
  errno = 0;
  EXPECT_EQ(aligned_alloc(24, 48), nullptr);
  EXPECT_EQ(errno, EINVAL);

  void* r = memalign(64, 10);
  ASSERT_NE(r, nullptr);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(r) % 64, 0u);
  EXPECT_GE(malloc_usable_size(r), 10u);
  std::free(r);
}

}  // namespace
