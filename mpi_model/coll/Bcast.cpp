// MPI_Bcast: binomial tree rooted at `root` (ranks relative to the root).
// A process receives once from its parent (relative rank minus its lowest
// set bit) and then sends to its children, farthest subtree first.

#include "coll/Collectives.hpp"

namespace progsim::mpi::coll {

int bcast(const CollCall& c, void* buf, std::int64_t count, MPI_Datatype type, int root)
{
  int n = c.size();
  if (n == 1)
    return MPI_SUCCESS;
  int rel = (c.me() - root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (rel & mask) {
      if (int err = recv(c, (rel - mask + root) % n, buf, count, type))
        return err;
      break;
    }
    mask <<= 1;
  }
  mask >>= 1;
  std::vector<RequestPtr> sends;
  for (; mask > 0; mask >>= 1)
    if (rel + mask < n)
      sends.push_back(isend(c, (rel + mask + root) % n, buf, count, type));
  return wait_all(c, sends);
}

}  // namespace progsim::mpi::coll
