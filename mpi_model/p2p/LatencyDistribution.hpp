// The distribution of message latencies behind the report's median and
// 99th percentile, in bounded memory.
//
// Up to `exact_limit` values are kept and the quantiles are exact (nearest
// rank). Beyond that the values move into a fixed log-scale histogram:
// 256 buckets per power of two, so a reported quantile is within 0.2% of
// the exact one, and memory stays constant however long the run or the
// replayed trace (issue 6: memory must not grow with trace length).
// Both modes are deterministic: the same values give the same quantiles.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace progsim::mpi {

class LatencyDistribution {
public:
  explicit LatencyDistribution(std::size_t exact_limit) : exact_limit_(exact_limit) {}

  void add(double seconds);
  std::uint64_t count() const { return count_; }
  // Whether quantile() is exact (false once the values went to the histogram).
  bool exact() const { return histogram_.empty(); }
  // Nearest-rank quantile, q in (0, 1]; requires count() > 0.
  double quantile(double q) const;
  // quantile() of each of `qs` (q = 0 gives the smallest value), sorting once.
  std::vector<double> quantiles(const std::vector<double>& qs) const;

  // Histogram geometry, public for the unit test's error bound.
  static constexpr int kBucketsPerOctave = 256;
  static constexpr int kMinExponent = -48;  // values below 2^-48 s (~4e-15 s) share bucket 0
  static constexpr int kMaxExponent = 32;   // values from 2^32 s share the last bucket

private:
  static std::size_t bucket_of(double seconds);
  static double bucket_value(std::size_t bucket);
  void to_histogram();

  std::size_t exact_limit_;
  std::uint64_t count_ = 0;
  std::vector<double> values_;            // while exact
  std::vector<std::uint64_t> histogram_;  // afterwards
};

}  // namespace progsim::mpi
