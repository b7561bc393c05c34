// MPI_Gather(v): linear. The root posts one receive per process into its
// block of recvbuf and copies its own block; the others send to the root.

#include "coll/Collectives.hpp"

namespace progsim::mpi::coll {

int gatherv(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
            const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls, MPI_Datatype rtype,
            int root)
{
  int n = c.size();
  int me = c.me();
  if (me != root)
    return send(c, root, sendbuf, scount, stype);
  auto* base = static_cast<std::byte*>(recvbuf);
  std::vector<RequestPtr> recvs;
  for (int i = 0; i < n; ++i)
    if (i != me)
      recvs.push_back(irecv(c, i, base + rdispls[static_cast<size_t>(i)], rcounts[static_cast<size_t>(i)], rtype));
  int err = MPI_SUCCESS;
  if (sendbuf != MPI_IN_PLACE)
    err = local_copy(c, sendbuf, scount, stype, base + rdispls[static_cast<size_t>(me)],
                     rcounts[static_cast<size_t>(me)], rtype);
  int wait_err = wait_all(c, recvs);
  return err ? err : wait_err;
}

}  // namespace progsim::mpi::coll
