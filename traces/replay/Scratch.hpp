// Memory for the data a replay sends, receives and exposes: its content
// does not matter, only its size. Shared by all ranks (the replay program
// is not privatized).
#pragma once

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <new>
#include <vector>

namespace progsim::traces {

// Zeroed memory for a replay's data, whose content does not matter: from
// calloc, so the pages nothing writes (a send buffer, which the model only
// reads; a window's or an attached region's bytes no operation reaches) stay
// unallocated, where new char[]() touched every one.
struct FreeBlock {
  void operator()(char* block) const { std::free(block); }
};
using ScratchBlock = std::unique_ptr<char, FreeBlock>;
inline ScratchBlock scratch_block(long long bytes)
{
  void* block = std::calloc(static_cast<std::size_t>(std::max(bytes, 1LL)), 1);
  if (!block)
    throw std::bad_alloc();
  return ScratchBlock(static_cast<char*>(block));
}

// A buffer larger than a replay gives (a trace's sizes multiplied, e.g. a
// reduction's count by its items' elements): RankReplay reports it at the
// event's trace line.
struct ScratchTooLarge {
  long long bytes;
};

// A block is never freed while the run lasts: pending nonblocking
// operations may still point into older blocks.
class Scratch {
public:
  // 4 GiB (e.g. an all-to-all of 1 MiB with 4,096 ranks): the model copies
  // what a buffer sends, so a larger one would exhaust a workstation's
  // memory, and the kernel would kill the run before any report. A recorded
  // size is at most 2^31-1 bytes (RankReplay::count): products reach this.
  static constexpr long long kLargest = 1LL << 32;

  void* get(long long bytes)
  {
    if (bytes > kLargest)
      throw ScratchTooLarge{bytes};
    auto size = static_cast<std::size_t>(std::max(bytes, 1LL));
    if (blocks_.empty() || size > size_) {
      size_ = std::max(size, 2 * size_);
      blocks_.push_back(scratch_block(static_cast<long long>(size_)));
    }
    return blocks_.back().get();
  }

private:
  std::vector<ScratchBlock> blocks_;
  std::size_t size_ = 0;
};

// What is sent (and put), and where data arrives (received, got).
extern Scratch send_scratch;
extern Scratch recv_scratch;

}  // namespace progsim::traces
