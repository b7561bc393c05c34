// MPI_Scan: a chain in rank order. Rank r receives the prefix of ranks
// 0..r-1 from r-1, computes prefix op x_r (its result) and passes it to r+1.

#include "coll/Collectives.hpp"
#include "coll/ReduceWork.hpp"

namespace progsim::mpi::coll {

int scan(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op)
{
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  int n = c.size();
  int me = c.me();
  WorkBuffer acc = w.allocate(count);
  w.load(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, acc.base);
  if (me > 0) {
    WorkBuffer prefix = w.allocate(count);
    if (int err = recv(c, me - 1, prefix.base, w.message_count(count), w.message_type()))
      return err;
    w.combine(prefix.base, acc.base, count);  // acc = prefix op x_me
  }
  w.store(acc.base, count, recvbuf);
  if (me + 1 < n)
    return send(c, me + 1, acc.base, w.message_count(count), w.message_type());
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
