// The list of the collectives whose algorithm --cfg coll-<name> chooses:
// a new collective is one line here, a new algorithm a row in its file.

#include "coll/Registry.hpp"

namespace progsim::mpi::coll {

bool is_power_of_two(int n)
{
  return (n & (n - 1)) == 0;
}

const std::vector<const CollectiveAlgorithms*>& collective_registry()
{
  static const std::vector<const CollectiveAlgorithms*> all = {
      &barrier_algorithms(),   &bcast_algorithms(),     &reduce_algorithms(),   &allreduce_algorithms(),
      &gather_algorithms(),    &scatter_algorithms(),   &allgather_algorithms(), &alltoall_algorithms(),
      &reduce_scatter_algorithms(), &scan_algorithms()};
  return all;
}

}  // namespace progsim::mpi::coll
