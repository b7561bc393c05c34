// The blocking collectives the communicator constructors and windows use internally:
// the same schedules as the MPI procedures, started and waited for at once.
// They are the library's own calls (Channel::for_library): a forced
// algorithm that does not apply to one gives way to auto's choice.

#include "coll/Algorithms.hpp"
#include "coll/Collectives.hpp"
#include "coll/ScheduleRunner.hpp"

#include "MpiModel.hpp"

namespace progsim::mpi::coll {

namespace {

Channel channel(const CollCall& c)
{
  return Channel{&c.comm, c.tag, true};
}

}  // namespace

int barrier(const CollCall& c)
{
  return run_blocking(c.caller, c.comm, [&](Schedule& s) { return build_barrier(s, channel(c)); });
}

int bcast(const CollCall& c, void* buf, std::int64_t count, MPI_Datatype type, int root)
{
  return run_blocking(c.caller, c.comm,
                      [&](Schedule& s) { return build_bcast(s, channel(c), buf, count, type, root); });
}

int allreduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
              MPI_Op op)
{
  return run_blocking(c.caller, c.comm, [&](Schedule& s) {
    return build_allreduce(s, channel(c), sendbuf, recvbuf, count, type, op);
  });
}

int allgather(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
              std::int64_t rcount, MPI_Datatype rtype)
{
  int n = c.size();
  Counts counts(static_cast<size_t>(n), rcount), displs(static_cast<size_t>(n));
  dt::DatatypePtr t = MpiModel::instance().datatypes().find(rtype);
  for (int i = 0; i < n; ++i)
    displs[static_cast<size_t>(i)] = i * rcount * (t ? t->extent() : 0);
  return run_blocking(c.caller, c.comm, [&](Schedule& s) {
    return build_allgatherv(s, channel(c), sendbuf, scount, stype, recvbuf, counts, displs, rtype, true);
  });
}

}  // namespace progsim::mpi::coll
