// Cartesian topologies (MPI-4.1 §8.5.1, 8.5.4-8.5.7): a grid of dims[0] x
// ... x dims[n-1] processes in row-major order (the last coordinate varies
// fastest), each dimension periodic or not. A zero-dimensional grid holds
// one process.
#pragma once

#include "topology/Topology.hpp"

#include <string>
#include <vector>

namespace progsim::mpi::topology {

class CartesianTopology final : public Topology {
public:
  CartesianTopology(std::vector<int> dims, std::vector<bool> periods);

  // Why these dims cannot make a grid of at most `group_size` processes
  // (a dimension <= 0, or too many processes), or "" when they can.
  static std::string check(const std::vector<int>& dims, int group_size);

  int kind() const override;
  Neighbors neighbors(int rank) const override;

  int ndims() const { return static_cast<int>(dims_.size()); }
  const std::vector<int>& dims() const { return dims_; }
  const std::vector<bool>& periods() const { return periods_; }
  // Product of the dims (1 for zero dimensions).
  int size() const { return size_; }

  std::vector<int> coords(int rank) const;
  // The rank at `coords`; a coordinate outside [0, dims[i]) wraps in a
  // periodic dimension and is an error otherwise: returns -1 and says why.
  int rank(const std::vector<int>& coords, std::string& error) const;

  // MPI_Cart_shift: the ranks `disp` steps below and above `rank` along
  // `direction` (MPI_PROC_NULL past a non-periodic border).
  struct Shift {
    int source;
    int dest;
  };
  Shift shift(int rank, int direction, int disp) const;

  // MPI_Cart_sub: the subgrid keeping the dimensions with remain[i], and
  // for `rank` the subgrid it belongs to (color: its rank in the grid of
  // the dropped dimensions) and its rank in that subgrid (key).
  CartesianTopology sub(const std::vector<bool>& remain) const;
  int sub_color(int rank, const std::vector<bool>& remain) const;
  int sub_key(int rank, const std::vector<bool>& remain) const;

private:
  std::vector<int> dims_;
  std::vector<bool> periods_;
  int size_ = 1;
};

}  // namespace progsim::mpi::topology
