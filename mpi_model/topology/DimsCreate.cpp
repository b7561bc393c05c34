// MPI_Dims_create's search: a depth-first enumeration of the non-increasing
// factorisations f1 >= f2 >= ... >= fk of the free product, trying each
// factor in increasing order (the most balanced candidates first), pruned
// by the best spread found so far: the smallest of the j factors still to
// choose for a remainder R is at most floor(R^(1/j)), so a branch whose
// largest factor minus that bound cannot beat the best is skipped. Among
// equal spreads the first one found is kept.

#include "topology/DimsCreate.hpp"

#include <algorithm>
#include <cstdint>
#include <limits>

namespace progsim::mpi::topology {

namespace {

std::int64_t power(std::int64_t base, int exponent, std::int64_t cap)
{
  std::int64_t result = 1;
  for (int i = 0; i < exponent; ++i) {
    result *= base;
    if (result > cap)
      return cap + 1;
  }
  return result;
}

// The largest x with x^n <= value (n >= 1).
std::int64_t floor_root(std::int64_t value, int n)
{
  if (n == 1 || value <= 1)
    return value;
  std::int64_t lo = 1, hi = value;
  while (lo < hi) {
    std::int64_t mid = lo + (hi - lo + 1) / 2;
    if (power(mid, n, value) <= value)
      lo = mid;
    else
      hi = mid - 1;
  }
  return lo;
}

// The smallest x with x^n >= value.
std::int64_t ceil_root(std::int64_t value, int n)
{
  std::int64_t r = floor_root(value, n);
  return power(r, n, value) == value ? r : r + 1;
}

class Search {
public:
  Search(int product, int count) : count_(count)
  {
    for (std::int64_t d = 1; d * d <= product; ++d)
      if (product % d == 0) {
        divisors_.push_back(d);
        if (d * d != product)
          divisors_.push_back(product / d);
      }
    std::sort(divisors_.begin(), divisors_.end());
    current_.reserve(static_cast<size_t>(count));
  }

  std::vector<int> run(std::int64_t product)
  {
    descend(product, count_, product);
    return best_;
  }

private:
  void descend(std::int64_t remainder, int slots, std::int64_t max_factor)
  {
    if (remainder == 1) {
      // The rest are ones.
      std::vector<int> candidate = current_;
      candidate.resize(static_cast<size_t>(count_), 1);
      offer(candidate);
      return;
    }
    if (slots == 1) {
      if (remainder > max_factor)
        return;
      current_.push_back(static_cast<int>(remainder));
      offer(current_);
      current_.pop_back();
      return;
    }
    std::int64_t lo = ceil_root(remainder, slots);
    std::int64_t hi = std::min(max_factor, remainder);
    for (std::int64_t f : divisors_) {
      if (f < lo || remainder % f != 0)
        continue;
      if (f > hi)
        break;
      std::int64_t first = current_.empty() ? f : current_.front();
      // The smallest factor left is at most floor((remainder / f)^(1/(slots-1))).
      std::int64_t bound = first - floor_root(remainder / f, slots - 1);
      if (bound > best_spread_)
        continue;
      current_.push_back(static_cast<int>(f));
      descend(remainder / f, slots - 1, f);
      current_.pop_back();
    }
  }

  void offer(const std::vector<int>& candidate)
  {
    std::int64_t spread = candidate.front() - candidate.back();
    if (spread < best_spread_ || (spread == best_spread_ && better_tie(candidate))) {
      best_spread_ = spread;
      best_ = candidate;
    }
  }

  // Equal spreads: the larger leading (hence smallest) dimension, then the
  // lexicographically larger one.
  bool better_tie(const std::vector<int>& candidate) const
  {
    return std::lexicographical_compare(best_.rbegin(), best_.rend(), candidate.rbegin(), candidate.rend());
  }

  int count_;
  std::vector<std::int64_t> divisors_;
  std::vector<int> current_;
  std::vector<int> best_;
  std::int64_t best_spread_ = std::numeric_limits<std::int64_t>::max();
};

}  // namespace

std::vector<int> balanced_factors(int product, int count)
{
  if (count <= 0)
    return {};
  if (product <= 1)
    return std::vector<int>(static_cast<size_t>(count), 1);
  return Search(product, count).run(product);
}

DimsResult dims_create(int nnodes, std::vector<int>& dims)
{
  if (nnodes < 0)
    return {false, "nnodes " + std::to_string(nnodes) + " is negative"};
  std::int64_t fixed = 1;
  int free_count = 0;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] < 0)
      return {false, "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) + " is negative"};
    if (dims[i] == 0)
      ++free_count;
    else
      fixed *= dims[i];
    fixed = std::min<std::int64_t>(fixed, std::int64_t{1} << 40);
  }
  if (nnodes == 0 || nnodes % fixed != 0)
    return {false, "nnodes " + std::to_string(nnodes) + " is not a multiple of the product of the fixed dims (" +
                       std::to_string(fixed) + ")"};
  if (free_count == 0 && fixed != nnodes)
    return {false, "the dims are all given and their product " + std::to_string(fixed) + " is not nnodes " +
                       std::to_string(nnodes)};
  std::vector<int> factors = balanced_factors(static_cast<int>(nnodes / fixed), free_count);
  std::size_t next = 0;
  for (int& d : dims)
    if (d == 0)
      d = factors[next++];
  return {true, {}};
}

}  // namespace progsim::mpi::topology
