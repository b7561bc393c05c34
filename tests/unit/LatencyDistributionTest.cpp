// LatencyDistribution: exact nearest-rank quantiles up to the limit, then a
// bounded histogram whose quantiles stay within 0.2% of the exact ones.
#include "p2p/LatencyDistribution.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

using progsim::mpi::LatencyDistribution;

namespace {

double exact_quantile(std::vector<double> v, double q)
{
  std::sort(v.begin(), v.end());
  auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
  return v[std::clamp<std::size_t>(rank, 1, v.size()) - 1];
}

// Deterministic spread of latencies over eight decades (1e-7 s .. 10 s).
std::vector<double> sample_latencies(std::size_t n)
{
  std::vector<double> v;
  std::uint64_t x = 88172645463325252ull;
  for (std::size_t i = 0; i < n; ++i) {
    x ^= x << 13;
    x ^= x >> 7;
    x ^= x << 17;
    double u = static_cast<double>(x >> 11) / 9007199254740992.0;  // [0, 1)
    v.push_back(1e-7 * std::pow(10.0, 8 * u));
  }
  return v;
}

}  // namespace

TEST(LatencyDistribution, ExactBelowTheLimit)
{
  LatencyDistribution d(100);
  for (double v : {5.0, 1.0, 4.0, 2.0, 3.0})
    d.add(v);
  EXPECT_TRUE(d.exact());
  EXPECT_EQ(d.count(), 5u);
  EXPECT_EQ(d.quantile(0.5), 3.0);
  EXPECT_EQ(d.quantile(0.99), 5.0);
  EXPECT_EQ(d.quantile(0.2), 1.0);
}

TEST(LatencyDistribution, HistogramQuantilesWithinTwoPerMille)
{
  std::vector<double> values = sample_latencies(20000);
  LatencyDistribution d(1000);
  for (double v : values)
    d.add(v);
  EXPECT_FALSE(d.exact());
  EXPECT_EQ(d.count(), values.size());
  for (double q : {0.01, 0.25, 0.5, 0.9, 0.99, 1.0}) {
    double exact = exact_quantile(values, q);
    EXPECT_NEAR(d.quantile(q), exact, exact * 0.002) << "q=" << q;
  }
}

TEST(LatencyDistribution, ZeroAndHugeValuesHaveBuckets)
{
  LatencyDistribution d(0);
  d.add(0.0);
  d.add(1e12);
  EXPECT_FALSE(d.exact());
  EXPECT_EQ(d.quantile(0.5), 0.0);
  EXPECT_EQ(d.quantile(1.0), std::ldexp(1.0, LatencyDistribution::kMaxExponent));
}

TEST(LatencyDistribution, SameValuesSameQuantilesInAnyMode)
{
  std::vector<double> values = sample_latencies(5000);
  LatencyDistribution a(0), b(0);
  for (double v : values)
    a.add(v);
  for (auto it = values.rbegin(); it != values.rend(); ++it)
    b.add(*it);
  EXPECT_EQ(a.quantile(0.5), b.quantile(0.5));
  EXPECT_EQ(a.quantile(0.99), b.quantile(0.99));
}
