// The chunks waiting for a rank's host agent, first in first out
// (RankProgress::host_queue). A std::deque holds a 512-byte block and its
// map even when empty, for every rank all along; this queue holds memory
// only while chunks wait (issue 19: a million replayed ranks on 24 GiB).
#pragma once

#include "progress/ProgressChunk.hpp"

#include <cstddef>
#include <vector>

namespace progsim::mpi {

class ChunkQueue {
public:
  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }
  ProgressChunk& front() { return items_[head_]; }
  const ProgressChunk& front() const { return items_[head_]; }
  void push_back(ProgressChunk&& chunk)
  {
    // Room for two at once: a message's arrival and the step it enables
    // (e.g. a collective's next round) usually wait together, and growing
    // 1 -> 2 would allocate twice each time the queue refills.
    if (items_.capacity() == 0)
      items_.reserve(kFirstCapacity);
    items_.push_back(std::move(chunk));
  }
  // Destroys the first chunk now (its action's captures with it, as a
  // deque's pop_front); the storage goes once the queue is empty, and the
  // popped prefix once it is half the vector (a queue that chunks keep
  // reaching before it empties would otherwise grow with the run).
  void pop_front()
  {
    items_[head_++] = ProgressChunk{};
    if (head_ == items_.size()) {
      std::vector<ProgressChunk>().swap(items_);
      head_ = 0;
    } else if (head_ >= kCompactAfter && 2 * head_ >= items_.size()) {
      items_.erase(items_.begin(), items_.begin() + static_cast<std::ptrdiff_t>(head_));
      head_ = 0;
    }
  }
  // In queue order (the deadlock explanations look through them).
  std::vector<ProgressChunk>::const_iterator begin() const { return items_.begin() + static_cast<std::ptrdiff_t>(head_); }
  std::vector<ProgressChunk>::const_iterator end() const { return items_.end(); }
  // Chunk slots held, popped ones included (what the queue costs in memory).
  std::size_t held() const { return items_.size(); }

private:
  static constexpr std::size_t kCompactAfter = 32;
  static constexpr std::size_t kFirstCapacity = 2;
  std::vector<ProgressChunk> items_;
  std::size_t head_ = 0;  // items_[0, head_) were popped
};

}  // namespace progsim::mpi
