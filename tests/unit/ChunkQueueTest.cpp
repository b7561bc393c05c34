// A rank's host queue of progress chunks (mpi_model/progress/ChunkQueue.hpp):
// first in first out, and its memory bounded by what waits, also when chunks
// keep arriving before it empties.
#include "progress/ChunkQueue.hpp"

#include <gtest/gtest.h>

using progsim::mpi::ChunkQueue;
using progsim::mpi::ProgressChunk;

namespace {

ProgressChunk chunk(std::uint64_t id)
{
  ProgressChunk c;
  c.id = id;
  return c;
}

TEST(ChunkQueue, FirstInFirstOutAndNothingHeldWhenEmpty)
{
  ChunkQueue q;
  EXPECT_TRUE(q.empty());
  for (std::uint64_t id = 1; id <= 3; ++id)
    q.push_back(chunk(id));
  EXPECT_EQ(q.size(), 3u);
  std::uint64_t expected = 1;
  for (const ProgressChunk& c : q)
    EXPECT_EQ(c.id, expected++);
  for (std::uint64_t id = 1; id <= 3; ++id) {
    EXPECT_EQ(q.front().id, id);
    q.pop_front();
  }
  EXPECT_TRUE(q.empty());
  EXPECT_EQ(q.held(), 0u);
}

TEST(ChunkQueue, NeverEmptyQueueStaysBoundedAndInOrder)
{
  ChunkQueue q;
  std::uint64_t pushed = 0, popped = 0;
  for (int i = 0; i < 5; ++i)
    q.push_back(chunk(++pushed));
  for (int i = 0; i < 100000; ++i) {
    q.push_back(chunk(++pushed));
    ASSERT_EQ(q.front().id, ++popped);
    q.pop_front();
    ASSERT_EQ(q.size(), 5u);
    ASSERT_LE(q.held(), 64u);  // the popped prefix goes once it is half the vector (32 at least)
  }
}

}  // namespace
