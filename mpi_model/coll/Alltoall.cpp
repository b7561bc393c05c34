// MPI_Alltoall(v,w): direct exchange. Every process posts a receive from
// each other process into its block, then sends each of them its block, and
// copies its own block locally. With MPI_IN_PLACE the outgoing blocks are
// packed out of recvbuf first (sent as MPI_PACKED), since the receives
// overwrite them.

#include "coll/Collectives.hpp"

#include "datatype/Pack.hpp"

namespace progsim::mpi::coll {

int alltoallw(const CollCall& c, const void* sendbuf, const std::vector<std::int64_t>& scounts,
              const std::vector<std::int64_t>& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
              const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
              const std::vector<MPI_Datatype>& rtypes)
{
  int n = c.size();
  int me = c.me();
  auto at = [](const void* base, std::int64_t displ) {
    return static_cast<std::byte*>(const_cast<void*>(base)) + displ;
  };
  bool in_place = sendbuf == MPI_IN_PLACE;
  std::vector<std::vector<std::byte>> packed(static_cast<size_t>(n));
  if (in_place) {
    for (int i = 0; i < n; ++i) {
      if (i == me)
        continue;
      auto u = static_cast<size_t>(i);
      dt::DatatypePtr t = c.b.model().datatypes().find(rtypes[u]);
      if (!t)
        return MPI_ERR_TYPE;
      packed[u].resize(static_cast<size_t>(dt::packed_size(*t, rcounts[u])));
      std::size_t position = 0;
      dt::pack(at(recvbuf, rdispls[u]), rcounts[u], *t, packed[u].data(), packed[u].size(), position);
    }
  }
  std::vector<RequestPtr> requests;
  for (int k = 1; k < n; ++k) {
    int i = (me - k + n) % n;
    auto u = static_cast<size_t>(i);
    requests.push_back(irecv(c, i, at(recvbuf, rdispls[u]), rcounts[u], rtypes[u]));
  }
  for (int k = 1; k < n; ++k) {
    int i = (me + k) % n;
    auto u = static_cast<size_t>(i);
    if (in_place)
      requests.push_back(isend(c, i, packed[u].data(), static_cast<std::int64_t>(packed[u].size()), MPI_PACKED));
    else
      requests.push_back(isend(c, i, at(sendbuf, sdispls[u]), scounts[u], stypes[u]));
  }
  int err = MPI_SUCCESS;
  if (!in_place) {
    auto u = static_cast<size_t>(me);
    err = local_copy(c, at(sendbuf, sdispls[u]), scounts[u], stypes[u], at(recvbuf, rdispls[u]), rcounts[u],
                     rtypes[u]);
  }
  int wait_err = wait_all(c, requests);
  return err ? err : wait_err;
}

}  // namespace progsim::mpi::coll
