#include "topology/CartesianTopology.hpp"

#include <mpi.h>

#include <cstdint>

namespace progsim::mpi::topology {

namespace {

// Row-major rank of `coords` (already inside the grid) in a grid of `dims`.
int row_major(const std::vector<int>& dims, const std::vector<int>& coords)
{
  int r = 0;
  for (std::size_t i = 0; i < dims.size(); ++i)
    r = r * dims[i] + coords[i];
  return r;
}

// The entries of `values` whose `keep` flag equals `which`.
std::vector<int> select(const std::vector<int>& values, const std::vector<bool>& keep, bool which)
{
  std::vector<int> out;
  for (std::size_t i = 0; i < values.size(); ++i)
    if (keep[i] == which)
      out.push_back(values[i]);
  return out;
}

}  // namespace

CartesianTopology::CartesianTopology(std::vector<int> dims, std::vector<bool> periods)
    : dims_(std::move(dims)), periods_(std::move(periods))
{
  periods_.resize(dims_.size(), false);
  for (int d : dims_)
    size_ *= d;
}

std::string CartesianTopology::check(const std::vector<int>& dims, int group_size)
{
  std::int64_t product = 1;
  for (std::size_t i = 0; i < dims.size(); ++i) {
    if (dims[i] <= 0)
      return "dims[" + std::to_string(i) + "] = " + std::to_string(dims[i]) + " (must be positive)";
    product *= dims[i];
    if (product > group_size)
      return "the grid has more processes than the communicator (" + std::to_string(group_size) + ")";
  }
  return {};
}

int CartesianTopology::kind() const
{
  return MPI_CART;
}

std::vector<int> CartesianTopology::coords(int rank) const
{
  std::vector<int> c(dims_.size());
  for (std::size_t i = dims_.size(); i-- > 0;) {
    c[i] = rank % dims_[i];
    rank /= dims_[i];
  }
  return c;
}

int CartesianTopology::rank(const std::vector<int>& coords, std::string& error) const
{
  std::vector<int> c = coords;
  for (std::size_t i = 0; i < dims_.size(); ++i) {
    if (c[i] >= 0 && c[i] < dims_[i])
      continue;
    if (!periods_[i]) {
      error = "coords[" + std::to_string(i) + "] = " + std::to_string(c[i]) +
              " is outside the non-periodic dimension of size " + std::to_string(dims_[i]);
      return -1;
    }
    c[i] = ((c[i] % dims_[i]) + dims_[i]) % dims_[i];
  }
  return row_major(dims_, c);
}

CartesianTopology::Shift CartesianTopology::shift(int rank, int direction, int disp) const
{
  std::vector<int> c = coords(rank);
  auto moved = [&](std::int64_t step) {
    auto d = static_cast<size_t>(direction);
    std::int64_t x = c[d] + step;
    if (x < 0 || x >= dims_[d]) {
      if (!periods_[d])
        return MPI_PROC_NULL;
      x = ((x % dims_[d]) + dims_[d]) % dims_[d];
    }
    std::vector<int> n = c;
    n[d] = static_cast<int>(x);
    return row_major(dims_, n);
  };
  return {moved(-static_cast<std::int64_t>(disp)), moved(disp)};
}

Neighbors CartesianTopology::neighbors(int rank) const
{
  // MPI-4.1 §8.6: per dimension d, the neighbours MPI_Cart_shift(comm, d, 1)
  // returns, source (below) first. Channels: 2d for data sent down, 2d+1 for
  // data sent up; the block from below arrived going up.
  Neighbors n;
  n.channel_count = ndims() > 0 ? 2 * ndims() : 1;
  for (int d = 0; d < ndims(); ++d) {
    Shift s = shift(rank, d, 1);
    n.sources.insert(n.sources.end(), {s.source, s.dest});
    n.source_channels.insert(n.source_channels.end(), {2 * d + 1, 2 * d});
    n.destinations.insert(n.destinations.end(), {s.source, s.dest});
    n.destination_channels.insert(n.destination_channels.end(), {2 * d, 2 * d + 1});
  }
  return n;
}

CartesianTopology CartesianTopology::sub(const std::vector<bool>& remain) const
{
  std::vector<bool> periods;
  for (std::size_t i = 0; i < dims_.size(); ++i)
    if (remain[i])
      periods.push_back(periods_[i]);
  return CartesianTopology(select(dims_, remain, true), std::move(periods));
}

int CartesianTopology::sub_color(int rank, const std::vector<bool>& remain) const
{
  std::vector<int> c = coords(rank);
  return row_major(select(dims_, remain, false), select(c, remain, false));
}

int CartesianTopology::sub_key(int rank, const std::vector<bool>& remain) const
{
  std::vector<int> c = coords(rank);
  return row_major(select(dims_, remain, true), select(c, remain, true));
}

}  // namespace progsim::mpi::topology
