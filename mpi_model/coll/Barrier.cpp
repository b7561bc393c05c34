// MPI_Barrier: dissemination barrier (Hensgen, Finkel & Manber) of zero-byte
// messages: in round i every process sends to me + 2^i and receives from
// me - 2^i; ceil(log2 n) rounds.

#include "coll/Collectives.hpp"

namespace progsim::mpi::coll {

int barrier(const CollCall& c)
{
  int n = c.size();
  int me = c.me();
  for (int distance = 1; distance < n; distance <<= 1) {
    RequestPtr r = irecv(c, (me - distance + n) % n, nullptr, 0, MPI_BYTE);
    RequestPtr s = isend(c, (me + distance) % n, nullptr, 0, MPI_BYTE);
    if (int err = wait_all(c, {s, r}))
      return err;
  }
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
