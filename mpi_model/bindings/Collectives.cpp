// MPI-4.1 chapter 6 (collectives). Interim: MPI_Barrier as a dissemination
// barrier of zero-byte messages on the communicator's collective context,
// until the schedule-based collective engine replaces it.

#include "bindings/Binding.hpp"

using namespace progsim;
using namespace progsim::mpi;

namespace {
constexpr int kBarrierTag = 1;
}

extern "C" {

int PMPI_Barrier(MPI_Comm comm)
{
  Binding b("MPI_Barrier");
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  int n = c->size();
  int me = c->local_rank(b.world());
  for (int distance = 1; distance < n; distance <<= 1) {
    OperationArgs to, from;
    to.comm = from.comm = c;
    to.context_offset = from.context_offset = 1;
    to.datatype = from.datatype = MPI_BYTE;
    to.tag = from.tag = kBarrierTag;
    to.call = from.call = "MPI_Barrier";
    to.peer = (me + distance) % n;
    from.peer = (me - distance + n) % n;
    RequestPtr recv = b.p2p().make_recv(b.world(), from);
    RequestPtr send = b.p2p().make_send(b.world(), SendMode::Standard, to);
    b.p2p().start(recv);
    b.p2p().start(send);
    b.wait(send);
    b.wait(recv);
  }
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Barrier)
