// The collectives' internal point-to-point messages: standard-mode sends and
// receives on the collective context (context_offset 1) with the call's tag,
// started at once and waited for through CallContext::wait.

#include "coll/Collectives.hpp"

#include "coll/Algorithms.hpp"

#include "datatype/Pack.hpp"
#include "MpiModel.hpp"
#include "p2p/PointToPoint.hpp"


namespace progsim::mpi::coll {

namespace {

OperationArgs args_for(const CollCall& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type)
{
  OperationArgs a;
  a.buf = const_cast<void*>(buf);
  a.count = count;
  a.datatype = type;
  a.peer = peer;
  a.tag = c.tag;
  a.comm = &c.comm;
  a.context_offset = 1;
  a.call = c.caller.call();
  return a;
}

}  // namespace

RequestPtr isend(const CollCall& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type)
{
  RequestPtr r = c.caller.p2p().make_send(c.caller.world(), SendMode::Standard, args_for(c, peer, buf, count, type));
  c.caller.p2p().start(r);
  return r;
}

RequestPtr irecv(const CollCall& c, int peer, void* buf, std::int64_t count, MPI_Datatype type)
{
  RequestPtr r = c.caller.p2p().make_recv(c.caller.world(), args_for(c, peer, buf, count, type));
  c.caller.p2p().start(r);
  return r;
}

int wait(const CollCall& c, const RequestPtr& request)
{
  c.caller.wait(request);
  return request->status_error;
}

int wait_all(const CollCall& c, const std::vector<RequestPtr>& requests)
{
  int first_error = MPI_SUCCESS;
  for (const RequestPtr& r : requests) {
    int err = wait(c, r);
    if (err != MPI_SUCCESS && first_error == MPI_SUCCESS)
      first_error = err;
  }
  return first_error;
}

int send(const CollCall& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type)
{
  return wait(c, isend(c, peer, buf, count, type));
}

int recv(const CollCall& c, int peer, void* buf, std::int64_t count, MPI_Datatype type)
{
  return wait(c, irecv(c, peer, buf, count, type));
}

int local_copy(const CollCall&, const void* src, std::int64_t scount, MPI_Datatype stype, void* dst,
               std::int64_t rcount, MPI_Datatype rtype)
{
  return copy_checked(src, scount, stype, dst, rcount, rtype);
}

}  // namespace progsim::mpi::coll
