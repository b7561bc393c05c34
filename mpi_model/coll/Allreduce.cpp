// MPI_Allreduce: reduce to rank 0 (in rank order, see Reduce.cpp), then
// broadcast the result in work format from rank 0.

#include "coll/Reduce.hpp"

namespace progsim::mpi::coll {

int allreduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
              MPI_Op op)
{
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  WorkBuffer acc = w.allocate(count);
  w.load(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, acc.base);
  if (int err = reduce_to_root(c, w, count, acc, 0))
    return err;
  if (int err = bcast(c, acc.base, w.message_count(count), w.message_type(), 0))
    return err;
  w.store(acc.base, count, recvbuf);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
