// MPI_Dims_create (MPI-4.1 §8.5.2): a balanced distribution of nnodes
// processes over a Cartesian grid. Pure logic, no MPI state.
//
// The standard asks for dimensions "as close to each other as possible"
// in non-increasing order, the positive entries of `dims` being fixed. The
// closeness measure is not defined; progsim minimises the spread (largest
// minus smallest free dimension), which is what MPICH's exhaustive search
// yields, and among equal spreads keeps the first one found with the largest
// leading dimension tried last (see DimsCreate.cpp), so that the results agree
// with MPICH's table of optimal decompositions.
#pragma once

#include <string>
#include <vector>

namespace progsim::mpi::topology {

struct DimsResult {
  bool ok = false;
  std::string error;  // why not, when !ok (an MPI_ERR_DIMS / MPI_ERR_ARG condition)
};

// Fills the entries of `dims` that are 0; positive entries are kept.
// Errors: nnodes < 0 (MPI_ERR_ARG... reported as text), a negative entry, or
// nnodes not a multiple of the product of the fixed entries.
DimsResult dims_create(int nnodes, std::vector<int>& dims);

// The balanced non-increasing factorisation of `product` into `count`
// factors (count >= 1, product >= 1).
std::vector<int> balanced_factors(int product, int count);

}  // namespace progsim::mpi::topology
