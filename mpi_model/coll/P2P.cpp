// The collectives' internal point-to-point messages: standard-mode sends and
// receives on the collective context (context_offset 1) with the call's tag,
// started at once and waited for through Binding::wait.

#include "coll/Collectives.hpp"

#include "coll/Algorithms.hpp"

#include "datatype/Pack.hpp"
#include "sim/Diagnostics.hpp"

#include <cstring>

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
  a.call = c.b.call();
  return a;
}

std::string comm_text(const Communicator& comm)
{
  if (!comm.name.empty())
    return comm.name;
  return "a communicator of " + std::to_string(comm.group->size()) + " process(es) (context id " +
         std::to_string(comm.context_id) + ")";
}

}  // namespace

RequestPtr isend(const CollCall& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type)
{
  RequestPtr r = c.b.p2p().make_send(c.b.world(), SendMode::Standard, args_for(c, peer, buf, count, type));
  c.b.p2p().start(r);
  return r;
}

RequestPtr irecv(const CollCall& c, int peer, void* buf, std::int64_t count, MPI_Datatype type)
{
  RequestPtr r = c.b.p2p().make_recv(c.b.world(), args_for(c, peer, buf, count, type));
  c.b.p2p().start(r);
  return r;
}

int wait(const CollCall& c, const RequestPtr& request)
{
  c.b.wait(request);
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

void note_collective(const Binding& b, const Communicator& comm, const char* name)
{
  auto& self = const_cast<Communicator&>(comm);
  std::uint64_t k = self.log.calls++;
  self.log.names[k % CollectiveLog::kDepth] = name;
  // Among the (local) group; intercommunicators compare within each group.
  int n = comm.group->size();
  if (n < 2 || self.log.mismatch_reported)
    return;
  // Ring neighbours suffice: if the members' calls #k are not all the same,
  // two neighbours differ, and the later of them sees it here.
  int me = comm.my_rank;
  for (int peer : {(me + 1) % n, (me + n - 1) % n}) {
    if (peer == me)
      continue;
    Communicator* other =
        b.model().communicators().find_by_context(comm.group->world_rank(peer), comm.context_id);
    if (!other || other->group->size() != n || other->log.calls <= k ||
        other->log.calls - k > CollectiveLog::kDepth)
      continue;
    const char* theirs = other->log.names[k % CollectiveLog::kDepth];
    if (!theirs || std::strcmp(theirs, name) == 0)
      continue;
    self.log.mismatch_reported = other->log.mismatch_reported = true;
    // An erroneous program; the run goes on, so that it shows what this
    // implementation does with it (e.g. completes when the collectives do
    // not synchronize, deadlocks when they do).
    sim::diag("error: collective mismatch on " + comm_text(comm) + ": its collective call #" +
              std::to_string(k + 1) + " is " + theirs + " at rank " + std::to_string(peer) + " but " + name +
              " at rank " + std::to_string(me) +
              " (erroneous: MPI-4.1 §6.14 requires all members to call the same collectives in the same order)");
    return;
  }
}

}  // namespace progsim::mpi::coll
