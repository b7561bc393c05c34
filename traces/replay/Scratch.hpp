// Memory for the data a replay sends, receives and exposes: its content
// does not matter, only its size. Shared by all ranks (the replay program
// is not privatized).
#pragma once

#include <algorithm>
#include <memory>
#include <vector>

namespace progsim::traces {

// A block is never freed while the run lasts: pending nonblocking
// operations may still point into older blocks.
class Scratch {
public:
  void* get(long long bytes)
  {
    auto size = static_cast<std::size_t>(std::max(bytes, 1LL));
    if (blocks_.empty() || size > size_) {
      size_ = std::max(size, 2 * size_);
      blocks_.emplace_back(new char[size_]());
    }
    return blocks_.back().get();
  }

private:
  std::vector<std::unique_ptr<char[]>> blocks_;
  std::size_t size_ = 0;
};

// What is sent (and put), and where data arrives (received, got).
extern Scratch send_scratch;
extern Scratch recv_scratch;

}  // namespace progsim::traces
