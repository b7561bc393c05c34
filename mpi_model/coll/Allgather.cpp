// MPI_Allgather: gather to rank 0, then broadcast the whole (contiguous)
// receive buffer: 2 (n - 1) messages in all.
// MPI_Allgatherv: direct exchange (the blocks may lie anywhere). Every
// process posts a receive from each other process into its block, sends its
// own block to each of them and copies it into its own slot (unless
// MPI_IN_PLACE: it is there already).

#include "coll/Collectives.hpp"

namespace progsim::mpi::coll {

int allgather(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
              std::int64_t rcount, MPI_Datatype rtype)
{
  int n = c.size();
  int me = c.me();
  dt::DatatypePtr t = c.b.model().datatypes().find(rtype);
  if (!t)
    return MPI_ERR_TYPE;
  std::vector<std::int64_t> counts(static_cast<size_t>(n), rcount), displs(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    displs[static_cast<size_t>(i)] = i * rcount * t->extent();
  const void* out = sendbuf;
  if (sendbuf == MPI_IN_PLACE && me != 0) {
    out = static_cast<const std::byte*>(recvbuf) + displs[static_cast<size_t>(me)];
    scount = rcount;
    stype = rtype;
  }
  if (int err = gatherv(c, out, scount, stype, recvbuf, counts, displs, rtype, 0))
    return err;
  return bcast(c, recvbuf, n * rcount, rtype, 0);
}

int allgatherv(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
               const std::vector<std::int64_t>& rcounts, const std::vector<std::int64_t>& rdispls,
               MPI_Datatype rtype)
{
  int n = c.size();
  int me = c.me();
  auto* base = static_cast<std::byte*>(recvbuf);
  auto slot = [&](int i) { return base + rdispls[static_cast<size_t>(i)]; };
  std::vector<RequestPtr> requests;
  for (int k = 1; k < n; ++k) {
    int i = (me - k + n) % n;
    requests.push_back(irecv(c, i, slot(i), rcounts[static_cast<size_t>(i)], rtype));
  }
  const void* out = sendbuf;
  std::int64_t out_count = scount;
  MPI_Datatype out_type = stype;
  int err = MPI_SUCCESS;
  if (sendbuf == MPI_IN_PLACE) {
    out = slot(me);
    out_count = rcounts[static_cast<size_t>(me)];
    out_type = rtype;
  } else {
    err = local_copy(c, sendbuf, scount, stype, slot(me), rcounts[static_cast<size_t>(me)], rtype);
  }
  for (int k = 1; k < n; ++k)
    requests.push_back(isend(c, (me + k) % n, out, out_count, out_type));
  int wait_err = wait_all(c, requests);
  return err ? err : wait_err;
}

}  // namespace progsim::mpi::coll
