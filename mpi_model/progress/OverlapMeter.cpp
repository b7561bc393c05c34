#include "progress/OverlapMeter.hpp"

#include <algorithm>

namespace progsim::mpi {

namespace {

struct Span {
  double begin, end;
};

// The intervals of `list` (time-ordered) clipped to [from, to].
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
  if (list.size() >= kKeptIntervals)
    list.erase(list.begin(), list.begin() + static_cast<std::ptrdiff_t>(kKeptIntervals / 2));
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

void OverlapMeter::note_operation(double post, double complete, const char* call)
{
  if (complete <= post)
    return;  // completed in its starting call: nothing to hide
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
