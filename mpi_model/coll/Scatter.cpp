// MPI_Scatter(v): linear. The root sends each process its block and copies
// its own; the others receive from the root.

#include "coll/Collectives.hpp"

namespace progsim::mpi::coll {

int scatterv(const CollCall& c, const void* sendbuf, const std::vector<std::int64_t>& scounts,
             const std::vector<std::int64_t>& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount,
             MPI_Datatype rtype, int root)
{
  int n = c.size();
  int me = c.me();
  if (me != root)
    return recv(c, root, recvbuf, rcount, rtype);
  const auto* base = static_cast<const std::byte*>(sendbuf);
  std::vector<RequestPtr> sends;
  for (int k = 1; k < n; ++k) {
    int i = (me + k) % n;
    sends.push_back(isend(c, i, base + sdispls[static_cast<size_t>(i)], scounts[static_cast<size_t>(i)], stype));
  }
  int err = MPI_SUCCESS;
  if (recvbuf != MPI_IN_PLACE)
    err = local_copy(c, base + sdispls[static_cast<size_t>(me)], scounts[static_cast<size_t>(me)], stype, recvbuf,
                     rcount, rtype);
  int wait_err = wait_all(c, sends);
  return err ? err : wait_err;
}

}  // namespace progsim::mpi::coll
