// MPI_Exscan: a chain in rank order. Rank r > 0 receives the prefix of ranks
// 0..r-1 (its result) from r-1 and passes prefix op x_r to r+1. Rank 0's
// receive buffer is left untouched (MPI-4.1 §6.11.2).

#include "coll/Collectives.hpp"
#include "coll/ReduceWork.hpp"

namespace progsim::mpi::coll {

int exscan(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op)
{
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  int n = c.size();
  int me = c.me();
  WorkBuffer mine = w.allocate(count);
  w.load(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, mine.base);
  if (me > 0) {
    WorkBuffer prefix = w.allocate(count);
    if (int err = recv(c, me - 1, prefix.base, w.message_count(count), w.message_type()))
      return err;
    w.store(prefix.base, count, recvbuf);
    if (me + 1 < n)
      w.combine(prefix.base, mine.base, count);  // mine = prefix op x_me
  }
  if (me + 1 < n)
    return send(c, me + 1, mine.base, w.message_count(count), w.message_type());
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
