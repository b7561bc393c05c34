#include "progress/OverlapMeter.hpp"

#include <algorithm>
#include <cstdint>

namespace progsim::mpi {

namespace {

struct Span {
  double begin, end;
};

// The intervals of `list` (ends in time order) clipped to [from, to].
template <class List>
std::vector<Span> clipped(const List& list, double from, double to)
{
  std::vector<Span> out;
  auto it = std::lower_bound(list.begin(), list.end(), from,
                             [](const auto& interval, double t) { return interval.end < t; });
  for (; it != list.end() && it->begin < to; ++it) {
    double b = std::max(from, it->begin), e = std::min(to, it->end);
    if (e > b)
      out.push_back({b, e});
  }
  return out;
}

double length(const std::vector<Span>& spans)
{
  double sum = 0;
  for (const Span& s : spans)
    sum += s.end - s.begin;
  return sum;
}

// Length of the union of two time-ordered lists of disjoint spans.
double union_length(std::vector<Span> a, const std::vector<Span>& b)
{
  a.insert(a.end(), b.begin(), b.end());
  std::sort(a.begin(), a.end(), [](const Span& x, const Span& y) { return x.begin < y.begin; });
  double sum = 0, open_begin = 0, open_end = -1;
  for (const Span& s : a) {
    if (s.begin > open_end) {
      sum += std::max(0.0, open_end - open_begin);
      open_begin = s.begin;
      open_end = s.end;
    } else {
      open_end = std::max(open_end, s.end);
    }
  }
  return sum + std::max(0.0, open_end - open_begin);
}

}  // namespace

double OverlapMeter::horizon() const
{
  for (const Held& h : held_)  // the entries before the first held one are at most half
    if (h.count > 0)
      return std::min(h.key, entered_);
  return entered_;
}

void OverlapMeter::trim(std::vector<Interval>& list)
{
  // Intervals ending before the horizon are clipped away by every operation
  // still to be measured (clipped() keeps only e > b). The last one stays:
  // the next interval may merge with it.
  double h = horizon();
  auto first_needed = std::lower_bound(list.begin(), list.end() - 1, h,
                                       [](const Interval& interval, double t) { return interval.end < t; });
  std::size_t drop = static_cast<std::size_t>(first_needed - list.begin());
  if (list.size() - drop >= max_intervals_)
    drop = std::max(drop, list.size() / 2);  // the hard bound: dropped_until_ tells who is approximate
  if (drop == 0)
    return;
  dropped_until_ = std::max(dropped_until_, list[drop - 1].end);
  list.erase(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(drop));
}

void OverlapMeter::add(std::vector<Interval>& list, double begin, double end)
{
  if (end <= begin)
    return;
  if (!list.empty() && begin <= list.back().end) {
    // Overlaps the last one (chunks queued together): merge.
    list.back().begin = std::min(list.back().begin, begin);
    list.back().end = std::max(list.back().end, end);
    return;
  }
  // Trim only when the list would grow (its storage is full) and is not
  // small: amortized O(1) per interval (a trim that frees less than half
  // lets the storage double before the next), and the storage stays within
  // twice what is still needed.
  if ((list.size() >= kTrimFrom && list.size() == list.capacity()) || list.size() >= max_intervals_) {
    trim(list);
    if (list.size() > list.capacity() / 2 && list.capacity() < max_intervals_)
      list.reserve(std::min<std::size_t>(2 * list.capacity(), max_intervals_));
  }
  list.push_back({begin, end});
}

void OverlapMeter::note_in_mpi(bool in_mpi, double now)
{
  if (in_mpi == inside_)
    return;
  inside_ = in_mpi;
  if (in_mpi)
    entered_ = now;
  else
    add(in_mpi_, entered_, now);
}

void OverlapMeter::note_stalled(double begin, double end)
{
  add(stalled_, begin, end);
}

double OverlapMeter::hold(double post)
{
  double key = post >= 0 ? std::min(entered_, post) : entered_;
  auto by_key = [](const Held& h, double k) { return h.key < k; };
  if (held_.empty() || key > held_.back().key) {
    held_.push_back({key, 1});  // the usual case: starts come in time order
    return key;
  }
  auto it = std::lower_bound(held_.begin(), held_.end(), key, by_key);
  if (it != held_.end() && it->key == key) {
    if (it->count++ == 0)
      --held_empty_;
  } else {
    held_.insert(it, {key, 1});
  }
  return key;
}

void OverlapMeter::release(double key)
{
  auto it = std::lower_bound(held_.begin(), held_.end(), key, [](const Held& h, double k) { return h.key < k; });
  if (it == held_.end() || it->key != key || it->count == 0)
    return;  // not held (a caller's slip; the check at the end of the run counts)
  if (--it->count > 0)
    return;
  if (++held_empty_ * 2 > held_.size()) {
    held_.erase(std::remove_if(held_.begin(), held_.end(), [](const Held& h) { return h.count == 0; }), held_.end());
    held_empty_ = 0;
  }
}

std::uint64_t OverlapMeter::pending() const
{
  std::uint64_t n = 0;
  for (const Held& h : held_)
    n += h.count;
  return n;
}

void OverlapMeter::note_operation(double post, double complete, const char* call)
{
  if (complete <= post)
    return;  // completed in its starting call: nothing to hide
  if (post < dropped_until_ && approximate_ < UINT32_MAX)
    ++approximate_;  // some of [post, complete] was dropped: measured on what is left
  std::vector<Span> in_mpi = clipped(in_mpi_, post, complete);
  if (inside_ && entered_ < complete)  // completion seen inside the call that is running
    in_mpi.push_back({std::max(post, entered_), complete});
  std::vector<Span> stalled = clipped(stalled_, post, complete);
  double exposed = length(in_mpi);
  double communication = (complete - post) - union_length(in_mpi, stalled) + exposed;
  ++operations_;
  communication_ += communication;
  hidden_ += communication - exposed;
  if (kept_.size() < kKeptOperations)
    kept_.push_back({call, post, complete, communication, communication - exposed});
}

}  // namespace progsim::mpi
