// The overlap meter (mpi_model/progress/OverlapMeter.hpp) measures an
// operation on every interval since its start, however many MPI calls the
// rank made meanwhile, and keeps only the intervals an operation the program
// holds, or one it may still start, can be measured on.
#include "progress/OverlapMeter.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

using namespace progsim::mpi;

namespace {

// One MPI call of `cost` seconds at `t`: entered, left. Returns its end.
double call(OverlapMeter& m, double t, double cost)
{
  m.note_in_mpi(true, t);
  m.note_in_mpi(false, t + cost);
  return t + cost;
}

// The measure by definition, on every interval ever noted (no trimming):
// the oracle of the randomized test.
struct Oracle {
  struct Span {
    double begin, end;
  };
  std::vector<Span> in_mpi, stalled;

  static void add(std::vector<Span>& list, double b, double e)
  {
    if (e <= b)
      return;
    if (!list.empty() && b <= list.back().end) {
      list.back().begin = std::min(list.back().begin, b);
      list.back().end = std::max(list.back().end, e);
      return;
    }
    list.push_back({b, e});
  }
  // As the meter walks its lists: from the first interval ending at or
  // after `from` while they begin before `to`.
  static std::vector<Span> clip(const std::vector<Span>& list, double from, double to)
  {
    std::vector<Span> out;
    auto it = std::lower_bound(list.begin(), list.end(), from, [](const Span& s, double t) { return s.end < t; });
    for (; it != list.end() && it->begin < to; ++it) {
      double b = std::max(from, it->begin), e = std::min(to, it->end);
      if (e > b)
        out.push_back({b, e});
    }
    return out;
  }
  static double union_length(std::vector<Span> a, const std::vector<Span>& b)
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
  // {communication, hidden} of an operation completed outside MPI calls.
  std::pair<double, double> measure(double post, double complete) const
  {
    std::vector<Span> m = clip(in_mpi, post, complete), s = clip(stalled, post, complete);
    double exposed = 0;
    for (const Span& x : m)
      exposed += x.end - x.begin;
    double communication = (complete - post) - union_length(m, s) + exposed;
    return {communication, communication - exposed};
  }
};

}  // namespace

// The reproduction of the bug: an MPI_Irecv, then 5,000 rounds of 1 us of
// computation and a 0.1 us MPI_Iprobe, then MPI_Wait. The receive hid the
// 5,000 us of computation, no more (the old meter, which kept 4,096
// intervals, measured 5,307 us).
TEST(OverlapMeter, OperationHeldAcrossThousandsOfCallsIsExact)
{
  OverlapMeter m;
  double t = call(m, 0, 1e-7);  // MPI_Irecv
  m.hold(0);
  for (int i = 0; i < 5000; ++i)
    t = call(m, t + 1e-6, 1e-7);  // computation, then MPI_Iprobe
  m.note_in_mpi(true, t);         // MPI_Wait: the message arrives 1 us later
  m.release(0);
  m.note_operation(0, t + 1e-6, "MPI_Irecv");
  ASSERT_EQ(m.kept_operations().size(), 1u);
  EXPECT_NEAR(m.hidden_time(), 5000 * 1e-6, 1e-12);
  EXPECT_NEAR(m.communication_time(), t + 1e-6, 1e-12);
  EXPECT_EQ(m.approximate_operations(), 0u);
  EXPECT_EQ(m.kept_in_mpi(), 5001u);  // nothing it needed was dropped
}

// Operations that complete soon after they start: the lists stay short
// (trimmed from kTrimFrom intervals on), whatever the run's length, and each
// operation is still measured exactly.
TEST(OverlapMeter, ShortOperationsKeepMemoryBounded)
{
  OverlapMeter m;
  double t = 0;
  for (int i = 0; i < 100000; ++i) {
    double post = t;
    m.note_in_mpi(true, t);  // MPI_Isend, held from inside its call
    double key = m.hold(post);
    m.note_in_mpi(false, t + 1e-7);
    t += 1e-7;
    t = call(m, t + 2e-6, 1e-7);  // computation, MPI_Test
    t = call(m, t + 3e-6, 1e-7);  // computation, MPI_Wait: complete at its start
    m.release(key);
    m.note_operation(post, t - 1e-7, "MPI_Isend");
  }
  EXPECT_NEAR(m.hidden_time(), 100000 * 5e-6, 1e-9);
  EXPECT_LE(m.kept_in_mpi(), 2 * OverlapMeter::kTrimFrom);
  EXPECT_EQ(m.approximate_operations(), 0u);
  EXPECT_EQ(m.pending(), 0u);
}

// One request held for ever (a receive never matched) stops the trimming:
// the bound drops the oldest half, and an operation started before what was
// dropped is counted as approximate; one started after it is exact.
TEST(OverlapMeter, BoundMarksOperationsApproximate)
{
  OverlapMeter m(256);
  double t = call(m, 0, 1e-7);
  m.hold(0);  // never released
  double t_early = call(m, t + 1e-6, 1e-7);
  m.hold(t_early - 1e-7);  // a second operation, started in that call
  t = t_early;
  for (int i = 0; i < 1000; ++i)
    t = call(m, t + 1e-6, 1e-7);
  EXPECT_LE(m.kept_in_mpi(), 256u);
  double late_post = t - 1e-7;  // started in the last call
  m.hold(late_post);
  t = call(m, t + 1e-6, 1e-7);
  m.note_operation(late_post, t - 1e-7, "MPI_Isend");  // completion seen in that call
  EXPECT_EQ(m.approximate_operations(), 0u);
  EXPECT_NEAR(m.hidden_time(), 1e-6, 1e-12);
  m.note_operation(t_early - 1e-7, t - 1e-7, "MPI_Irecv");
  EXPECT_EQ(m.approximate_operations(), 1u);
  EXPECT_EQ(m.pending(), 3u);
}

// hold() returns a key no later than the start, nor than the current call;
// release() of a key not held changes nothing.
TEST(OverlapMeter, HoldKeysAndCounts)
{
  OverlapMeter m;
  m.note_in_mpi(true, 2.0);
  EXPECT_EQ(m.hold(2.5), 2.0);   // later than the call's entry: the entry
  EXPECT_EQ(m.hold(1.5), 1.5);   // earlier (a stamped start): itself
  EXPECT_EQ(m.hold(-1), 2.0);    // not started yet
  EXPECT_EQ(m.pending(), 3u);
  m.release(7.0);
  EXPECT_EQ(m.pending(), 3u);
  m.release(2.0);
  m.release(2.0);
  m.release(1.5);
  EXPECT_EQ(m.pending(), 0u);
}

// Random calls, computations, stalls (ends in order, as the progress engine
// notes them), holds and completions: every operation's figures are
// bit-identical to the measure on every interval ever noted, while the
// meter keeps a fraction of them.
TEST(OverlapMeter, TrimmedMeterEqualsUntrimmedMeasure)
{
  std::mt19937 rng(12345);
  std::uniform_real_distribution<double> dt(1e-8, 2e-6);
  OverlapMeter m;
  Oracle o;
  struct Op {
    double post, key;
    int waits;
  };
  std::vector<Op> held;
  double t = 0, last_stall_end = 0;
  int measured = 0;
  for (int i = 0; i < 200000; ++i) {
    t += dt(rng);  // computation
    m.note_in_mpi(true, t);
    double entered = t;
    t += dt(rng);
    if (rng() % 3 == 0) {  // a chunk waited: from some time back to now
      double begin = std::max(0.0, t - 4 * dt(rng));
      double end = std::max(t, last_stall_end);
      m.note_stalled(begin, end);
      Oracle::add(o.stalled, begin, end);
      last_stall_end = end;
    }
    m.note_in_mpi(false, t);
    Oracle::add(o.in_mpi, entered, t);
    if (rng() % 4 == 0)  // this call started an operation, completed some calls later
      held.push_back({entered, m.hold(entered), static_cast<int>(rng() % (i % 5000 == 0 ? 20000 : 30))});
    for (std::size_t k = 0; k < held.size();) {
      if (held[k].waits-- > 0) {
        ++k;
        continue;
      }
      double complete = t - dt(rng) * 0.1;  // completed before the call's end, seen outside
      m.release(held[k].key);
      std::uint64_t before = m.operations();
      double communication = m.communication_time(), hidden = m.hidden_time();
      m.note_operation(held[k].post, complete, "op");
      auto [c, h] = o.measure(held[k].post, complete);
      if (m.operations() > before) {
        ASSERT_EQ(m.communication_time() - communication, (communication + c) - communication) << "operation " << measured;
        ASSERT_EQ(m.hidden_time() - hidden, (hidden + h) - hidden) << "operation " << measured;
        if (measured < static_cast<int>(OverlapMeter::kKeptOperations)) {
          ASSERT_EQ(m.kept_operations()[static_cast<std::size_t>(measured)].communication, c);
          ASSERT_EQ(m.kept_operations()[static_cast<std::size_t>(measured)].hidden, h);
        }
        ++measured;
      }
      held.erase(held.begin() + static_cast<std::ptrdiff_t>(k));
    }
  }
  EXPECT_GT(measured, 40000);
  EXPECT_EQ(m.approximate_operations(), 0u);
  EXPECT_EQ(m.pending(), held.size());
  EXPECT_LT(m.kept_in_mpi(), o.in_mpi.size() / 4);
}
