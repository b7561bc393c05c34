// MPI_Reduce_scatter(_block): reduce the whole vector to rank 0 (in rank
// order, see Reduce.cpp), then rank 0 sends each process its block of the
// result in work format.

#include "coll/Reduce.hpp"

namespace progsim::mpi::coll {

int reduce_scatter(const CollCall& c, const void* sendbuf, void* recvbuf, const std::vector<std::int64_t>& rcounts,
                   MPI_Datatype type, MPI_Op op)
{
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  int n = c.size();
  int me = c.me();
  std::vector<std::int64_t> first(static_cast<size_t>(n) + 1, 0);
  for (int i = 0; i < n; ++i)
    first[static_cast<size_t>(i) + 1] = first[static_cast<size_t>(i)] + rcounts[static_cast<size_t>(i)];
  std::int64_t total = first.back();
  WorkBuffer acc = w.allocate(total);
  w.load(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, total, acc.base);
  if (int err = reduce_to_root(c, w, total, acc, 0))
    return err;
  std::int64_t mine = rcounts[static_cast<size_t>(me)];
  if (me != 0) {
    WorkBuffer block = w.allocate(mine);
    if (int err = recv(c, 0, block.base, w.message_count(mine), w.message_type()))
      return err;
    w.store(block.base, mine, recvbuf);
    return MPI_SUCCESS;
  }
  std::vector<RequestPtr> sends;
  for (int i = 1; i < n; ++i) {
    auto u = static_cast<size_t>(i);
    sends.push_back(isend(c, i, acc.base + w.item_offset(first[u]), w.message_count(rcounts[u]), w.message_type()));
  }
  w.store(acc.base, mine, recvbuf);
  return wait_all(c, sends);
}

}  // namespace progsim::mpi::coll
