#include "core/Request.hpp"

#include "diagnosis/CallSites.hpp"
#include "sim/CallScope.hpp"

namespace progsim::mpi {

namespace {
constexpr HandleKind<MPI_Request> kRequest{0x2c000000};
}  // namespace

const char* to_string(Protocol protocol)
{
  switch (protocol) {
    case Protocol::None: return "none";
    case Protocol::Eager: return "eager";
    case Protocol::EagerSync: return "eager-sync";
    case Protocol::RendezvousPush: return "rendezvous-push";
    case Protocol::RendezvousPull: return "rendezvous-pull";
  }
  return "?";
}

const char* to_string(RequestState state)
{
  switch (state) {
    case RequestState::Inactive: return "inactive";
    case RequestState::Posted: return "posted";
    case RequestState::WaitingForCts: return "waiting-for-cts";
    case RequestState::SendingData: return "sending-data";
    case RequestState::WaitingForAck: return "waiting-for-ack";
    case RequestState::WaitingForFin: return "waiting-for-fin";
    case RequestState::WaitingForData: return "waiting-for-data";
    case RequestState::Complete: return "complete";
  }
  return "?";
}

const char* to_string(SendMode mode)
{
  switch (mode) {
    case SendMode::Standard: return "standard";
    case SendMode::Buffered: return "buffered";
    case SendMode::Synchronous: return "synchronous";
    case SendMode::Ready: return "ready";
  }
  return "?";
}

std::string Request::describe() const
{
  if (kind == RequestKind::Generalized)
    return "MPI_Grequest_start(), a generalized request waiting for its MPI_Grequest_complete";
  if (kind == RequestKind::Collective)
    return collective ? collective->describe() : std::string(call);
  if (kind == RequestKind::Partitioned)
    return rare().partitioned ? rare().partitioned->describe() : std::string(call);
  if (kind == RequestKind::Rma)
    return std::string(call) + "(target=" + std::to_string(peer) + ", " + std::to_string(bytes) +
           " bytes), waiting for the operation to complete";
  std::string peer_text;
  if (kind == RequestKind::Send)
    peer_text = "dest=" + std::to_string(peer);
  else
    peer_text = "source=" + (peer == MPI_ANY_SOURCE ? std::string("MPI_ANY_SOURCE") : std::to_string(peer));
  std::string tag_text = tag == MPI_ANY_TAG ? "MPI_ANY_TAG" : std::to_string(tag);
  std::string comm_text = comm_name.empty() ? "comm" : comm_name;
  if (context_id != comm_context)  // a collective's internal message
    return std::string(call) + "(comm=" + comm_text + "), " +
           (kind == RequestKind::Send ? "sending to rank " : "waiting for a message from rank ") +
           std::to_string(peer);
  return std::string(call) + "(" + peer_text + ", tag=" + tag_text + ", comm=" + comm_text + ", " +
         std::to_string(bytes) + " bytes)";
}

const RequestRare& Request::rare() const
{
  static const RequestRare kNone;
  const RequestRare* r = rare_.get();
  return r ? *r : kNone;
}

RequestPtr new_request(RequestKind kind, int owner, const Communicator& comm, int context_offset, const char* call)
{
  auto r = std::make_shared<Request>();
  r->kind = kind;
  r->owner = owner;
  r->comm_handle = comm.handle;
  r->comm_name = comm.name;
  r->comm_context = comm.context_id;
  r->self_local = comm.local_rank(owner);
  r->context_id = comm.context_id + context_offset;
  r->peer = MPI_PROC_NULL;
  r->call = call;
  return r;
}

MPI_Request RequestTable::insert(const RequestPtr& request)
{
  request->call_site = call_site_mark(sim::calling_rank());
  request->handle = kRequest.handle(table_.insert(request));
  return request->handle;
}

RequestPtr RequestTable::find(MPI_Request handle) const
{
  const RequestPtr* slot = table_.slot(kRequest.index_or(handle, 0));
  return slot ? *slot : nullptr;
}

std::vector<RequestPtr> RequestTable::live_requests() const
{
  std::vector<RequestPtr> requests;
  for (std::uint32_t index : table_.live_indices())
    requests.push_back(*table_.slot(index));
  return requests;
}

void RequestTable::erase(MPI_Request handle)
{
  std::uint32_t index = kRequest.index(handle);
  if (!table_.holds(index))
    return;
  table_.take(index)->handle = MPI_REQUEST_NULL;  // the program holds it no more (it cannot cancel it)
}

}  // namespace progsim::mpi
