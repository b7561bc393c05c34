#include "p2p/LatencyDistribution.hpp"

#include <algorithm>
#include <cmath>

namespace progsim::mpi {

namespace {

constexpr std::size_t kOctaves = LatencyDistribution::kMaxExponent - LatencyDistribution::kMinExponent;
constexpr std::size_t kBuckets = kOctaves * LatencyDistribution::kBucketsPerOctave + 1;

// Nearest rank of quantile q among n values (1-based).
std::uint64_t nearest_rank(double q, std::uint64_t n)
{
  auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(n)));
  return std::clamp<std::uint64_t>(rank, 1, n);
}

}  // namespace

void LatencyDistribution::add(double seconds)
{
  ++count_;
  if (histogram_.empty() && values_.size() < exact_limit_) {
    values_.push_back(seconds);
    return;
  }
  if (histogram_.empty())
    to_histogram();  // before growing the vector past the limit
  ++histogram_[bucket_of(seconds)];
}

void LatencyDistribution::to_histogram()
{
  histogram_.assign(kBuckets, 0);
  for (double v : values_)
    ++histogram_[bucket_of(v)];
  values_ = {};  // releases the memory
}

std::size_t LatencyDistribution::bucket_of(double seconds)
{
  if (!(seconds >= std::ldexp(1.0, kMinExponent)))  // also NaN and negatives
    return 0;
  if (seconds >= std::ldexp(1.0, kMaxExponent))
    return kBuckets - 1;
  int exponent = 0;
  double mantissa = std::frexp(seconds, &exponent);  // seconds = mantissa * 2^exponent, mantissa in [0.5, 1)
  auto octave = static_cast<std::size_t>(exponent - 1 - kMinExponent);
  auto step = static_cast<std::size_t>((mantissa * 2 - 1) * kBucketsPerOctave);
  return 1 + octave * kBucketsPerOctave + std::min<std::size_t>(step, kBucketsPerOctave - 1);
}

double LatencyDistribution::bucket_value(std::size_t bucket)
{
  if (bucket == 0)
    return 0;
  if (bucket == kBuckets - 1)
    return std::ldexp(1.0, kMaxExponent);
  std::size_t octave = (bucket - 1) / kBucketsPerOctave;
  std::size_t step = (bucket - 1) % kBucketsPerOctave;
  // The middle of the bucket: at most half a bucket (1/512 of an octave's
  // lower edge, < 0.2%) from any value in it.
  double low = 1 + static_cast<double>(step) / kBucketsPerOctave;
  double middle = low + 0.5 / kBucketsPerOctave;
  return std::ldexp(middle, static_cast<int>(octave) + kMinExponent);
}

std::vector<double> LatencyDistribution::quantiles(const std::vector<double>& qs) const
{
  if (!histogram_.empty()) {
    std::vector<double> out;
    for (double q : qs)
      out.push_back(quantile(q));
    return out;
  }
  std::vector<double> sorted = values_;
  std::sort(sorted.begin(), sorted.end());
  std::vector<double> out;
  for (double q : qs)
    out.push_back(sorted[nearest_rank(q, count_) - 1]);
  return out;
}

double LatencyDistribution::quantile(double q) const
{
  std::uint64_t rank = nearest_rank(q, count_);
  if (histogram_.empty()) {
    std::vector<double> sorted = values_;
    auto nth = sorted.begin() + static_cast<std::ptrdiff_t>(rank - 1);
    std::nth_element(sorted.begin(), nth, sorted.end());
    return *nth;
  }
  std::uint64_t seen = 0;
  for (std::size_t b = 0; b < histogram_.size(); ++b) {
    seen += histogram_[b];
    if (seen >= rank)
      return bucket_value(b);
  }
  return bucket_value(histogram_.size() - 1);
}

}  // namespace progsim::mpi
