#include "topology/NeighborExchange.hpp"

#include "topology/TopologyTags.hpp"

#include <mpi.h>

namespace progsim::mpi::topology {

std::vector<RequestPtr> start_neighbor_exchange(const Binding& b, const Communicator& comm, const Neighbors& n,
                                                const std::vector<SendBlock>& sends,
                                                const std::vector<RecvBlock>& recvs)
{
  auto on_channel = [&](int channel) { return coll::CollCall{b, comm, kNeighborTagBase + channel}; };
  std::vector<RequestPtr> requests;
  // Receives first: a process that is its own neighbour (self edges,
  // periodic dimensions of size 1) finds its receive posted.
  for (std::size_t i = 0; i < n.sources.size(); ++i) {
    if (n.sources[i] == MPI_PROC_NULL)
      continue;
    requests.push_back(
        coll::irecv(on_channel(n.source_channels[i]), n.sources[i], recvs[i].buf, recvs[i].count, recvs[i].type));
  }
  for (std::size_t j = 0; j < n.destinations.size(); ++j) {
    if (n.destinations[j] == MPI_PROC_NULL)
      continue;
    requests.push_back(coll::isend(on_channel(n.destination_channels[j]), n.destinations[j], sends[j].buf,
                                   sends[j].count, sends[j].type));
  }
  return requests;
}

int neighbor_alltoallw(const Binding& b, const Communicator& comm, const Neighbors& n,
                       const std::vector<SendBlock>& sends, const std::vector<RecvBlock>& recvs)
{
  return coll::wait_all({b, comm, kNeighborTagBase}, start_neighbor_exchange(b, comm, n, sends, recvs));
}

RequestPtr neighbor_request(const Binding& b, const Communicator& comm, std::vector<RequestPtr> parts)
{
  auto r = std::make_shared<Request>();
  r->kind = RequestKind::Recv;
  r->owner = b.world();
  r->comm_handle = comm.handle;
  r->comm_name = comm.name;
  r->comm_context = comm.context_id;
  r->context_id = comm.context_id + 1;  // described as a collective's
  r->self_local = comm.my_rank;
  r->peer = MPI_PROC_NULL;
  r->call = b.call();
  r->state = parts.empty() ? RequestState::Complete : RequestState::Posted;
  r->parts = std::move(parts);
  // Binding::done copies the status of a receive part; a collective's
  // request reports only the first error of its parts (MPI-4.1 §6.12: its
  // MPI_SOURCE and MPI_TAG are undefined).
  Request* self = r.get();
  r->on_complete = [self] {
    self->status_error = MPI_SUCCESS;
    for (const RequestPtr& part : self->parts)
      if (part->status_error != MPI_SUCCESS) {
        self->status_error = part->status_error;
        break;
      }
    self->status_source = MPI_ANY_SOURCE;
    self->status_tag = MPI_ANY_TAG;
  };
  return r;
}

}  // namespace progsim::mpi::topology
