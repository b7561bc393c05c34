// MPI-4.1 chapter 3: blocking and nonblocking sends and receives in all
// modes, combined send-receive, persistent requests; each with its
// large-count variant (_c, MPI_Count counts, §19.2). Both call the same
// helpers, which take 64-bit counts.

#include "bindings/Binding.hpp"

#include "datatype/Pack.hpp"

#include <cstring>

using namespace progsim;
using namespace progsim::mpi;

namespace {

// A buffered send looks at the attached buffer's free space, which the
// progress of earlier buffered sends frees (MPI-4.1 §3.6): it interacts.
// Sends in the other modes are stamped (sim::CallKind).
sim::CallKind send_kind(SendMode mode)
{
  return mode == SendMode::Buffered ? sim::CallKind::Interacting : sim::CallKind::Stamped;
}

// Blocking send in any mode: start, then wait for local completion.
int blocking_send(const char* call, SendMode mode, const void* buf, std::int64_t count, MPI_Datatype datatype,
                  int dest, int tag, MPI_Comm comm)
{
  Binding b(call, send_kind(mode));
  OperationArgs args;
  if (int err = b.p2p_args(buf, count, datatype, dest, tag, comm, false, args))
    return err;
  RequestPtr r = b.p2p().make_send(b.world(), mode, args);
  if (int err = start_request(b, r))
    return b.error(comm, err, "the attached buffer cannot hold the message (MPI_Buffer_attach)");
  b.wait(r);
  return MPI_SUCCESS;
}

int nonblocking_send(const char* call, SendMode mode, const void* buf, std::int64_t count, MPI_Datatype datatype,
                     int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  Binding b(call, send_kind(mode));
  OperationArgs args;
  if (int err = b.p2p_args(buf, count, datatype, dest, tag, comm, false, args))
    return err;
  RequestPtr r = b.p2p().make_send(b.world(), mode, args);
  if (int err = start_request(b, r))
    return b.error(comm, err, "the attached buffer cannot hold the message (MPI_Buffer_attach)");
  *request = hand_out(b, r);
  b.model().pending_buffers().arm(*r);
  return MPI_SUCCESS;
}

int persistent_send(const char* call, SendMode mode, const void* buf, std::int64_t count, MPI_Datatype datatype,
                    int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  Binding b(call, sim::CallKind::Stamped);
  OperationArgs args;
  if (int err = b.p2p_args(buf, count, datatype, dest, tag, comm, false, args))
    return err;
  RequestPtr r = b.p2p().make_send(b.world(), mode, args);
  r->persistent = true;
  *request = hand_out(b, r);
  return MPI_SUCCESS;
}

int finish_receive(const Binding& b, const RequestPtr& r, MPI_Comm comm, MPI_Status* status)
{
  fill_status(status, *r);
  if (r->status_error == MPI_ERR_TRUNCATE)
    return b.error(comm, MPI_ERR_TRUNCATE,
                   "message from rank " + std::to_string(r->status_source) + " with tag " +
                       std::to_string(r->status_tag) + " is larger than the receive buffer of " +
                       std::to_string(r->bytes) + " bytes");
  return r->status_error;
}

int blocking_recv(const char* call, void* buf, std::int64_t count, MPI_Datatype datatype, int source, int tag,
                  MPI_Comm comm, MPI_Status* status)
{
  Binding b(call, sim::CallKind::Stamped);
  OperationArgs args;
  if (int err = b.p2p_args(buf, count, datatype, source, tag, comm, true, args))
    return err;
  RequestPtr r = b.p2p().make_recv(b.world(), args);
  b.p2p().start(r);
  b.wait(r);
  return finish_receive(b, r, comm, status);
}

// A nonblocking receive (started) or a persistent one (inactive).
int request_recv(const char* call, bool persistent, void* buf, std::int64_t count, MPI_Datatype datatype, int source,
                 int tag, MPI_Comm comm, MPI_Request* request)
{
  Binding b(call, sim::CallKind::Stamped);
  OperationArgs args;
  if (int err = b.p2p_args(buf, count, datatype, source, tag, comm, true, args))
    return err;
  RequestPtr r = b.p2p().make_recv(b.world(), args);
  if (persistent)
    r->persistent = true;
  else
    b.p2p().start(r);
  *request = hand_out(b, r);
  b.model().pending_buffers().arm(*r);
  return MPI_SUCCESS;
}

// Packs a buffer so that the send side of a *_replace call reads a copy.
std::shared_ptr<std::vector<std::byte>> packed_copy(const Binding& b, const void* buf, std::int64_t count,
                                                    MPI_Datatype type)
{
  dt::DatatypePtr t = b.model().datatypes().find(type);
  auto copy = std::make_shared<std::vector<std::byte>>(static_cast<size_t>(t->size() * count));
  std::size_t position = 0;
  if (!copy->empty())
    dt::pack(buf, count, *t, copy->data(), copy->size(), position);
  return copy;
}

// Builds the two parts of a send-receive; the caller waits or returns a request.
int start_sendrecv(const Binding& b, const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, int dest,
                   int sendtag, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int source, int recvtag,
                   MPI_Comm comm, RequestPtr& send, RequestPtr& recv)
{
  OperationArgs sargs, rargs;
  if (int err = b.p2p_args(sendbuf, sendcount, sendtype, dest, sendtag, comm, false, sargs))
    return err;
  if (int err = b.p2p_args(recvbuf, recvcount, recvtype, source, recvtag, comm, true, rargs))
    return err;
  recv = b.p2p().make_recv(b.world(), rargs);
  send = b.p2p().make_send(b.world(), SendMode::Standard, sargs);
  b.p2p().start(recv);
  b.p2p().start(send);
  return MPI_SUCCESS;
}

RequestPtr composite(const RequestPtr& send, const RequestPtr& recv, const char* call)
{
  auto r = std::make_shared<Request>(*recv);
  r->handle = MPI_REQUEST_NULL;
  r->call = call;
  r->state = RequestState::Posted;
  r->writable_rare().parts = {send, recv};
  return r;
}

// MPI_Sendrecv (request == nullptr: waits and fills status) or
// MPI_Isendrecv (returns the composite request).
int sendrecv(const char* call, const void* sendbuf, std::int64_t sendcount, MPI_Datatype sendtype, int dest,
             int sendtag, void* recvbuf, std::int64_t recvcount, MPI_Datatype recvtype, int source, int recvtag,
             MPI_Comm comm, MPI_Status* status, MPI_Request* request)
{
  Binding b(call, sim::CallKind::Stamped);
  RequestPtr send, recv;
  if (int err = start_sendrecv(b, sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                               recvtag, comm, send, recv))
    return err;
  RequestPtr r = composite(send, recv, call);
  if (request) {
    *request = hand_out(b, r);
    b.model().pending_buffers().arm(*r);
    return MPI_SUCCESS;
  }
  b.wait(r);
  return finish_receive(b, recv, comm, status);
}

// MPI_Sendrecv_replace / MPI_Isendrecv_replace: the send reads a packed copy.
int sendrecv_replace(const char* call, void* buf, std::int64_t count, MPI_Datatype datatype, int dest, int sendtag,
                     int source, int recvtag, MPI_Comm comm, MPI_Status* status, MPI_Request* request)
{
  Binding b(call, sim::CallKind::Stamped);
  if (int err = b.check_initialized())
    return err;
  if (int err = b.check_buffer(buf, count, datatype, comm))
    return err;
  auto copy = packed_copy(b, buf, count, datatype);
  RequestPtr send, recv;
  if (int err = start_sendrecv(b, copy->data(), static_cast<std::int64_t>(copy->size()), MPI_BYTE, dest, sendtag,
                               buf, count, datatype, source, recvtag, comm, send, recv))
    return err;
  RequestPtr r = composite(send, recv, call);
  if (request) {
    r->staged = copy;  // the send reads the copy until it completes
    *request = hand_out(b, r);
    b.model().pending_buffers().arm(*r);
    return MPI_SUCCESS;
  }
  b.wait(r);
  return finish_receive(b, recv, comm, status);
}

}  // namespace

extern "C" {

int PMPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Send", SendMode::Standard, buf, count, datatype, dest, tag, comm);
}

int PMPI_Send_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Send_c", SendMode::Standard, buf, count, datatype, dest, tag, comm);
}

int PMPI_Bsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Bsend", SendMode::Buffered, buf, count, datatype, dest, tag, comm);
}

int PMPI_Bsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Bsend_c", SendMode::Buffered, buf, count, datatype, dest, tag, comm);
}

int PMPI_Ssend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Ssend", SendMode::Synchronous, buf, count, datatype, dest, tag, comm);
}

int PMPI_Ssend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Ssend_c", SendMode::Synchronous, buf, count, datatype, dest, tag, comm);
}

int PMPI_Rsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Rsend", SendMode::Ready, buf, count, datatype, dest, tag, comm);
}

int PMPI_Rsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm)
{
  return blocking_send("MPI_Rsend_c", SendMode::Ready, buf, count, datatype, dest, tag, comm);
}

int PMPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
               MPI_Request* request)
{
  return nonblocking_send("MPI_Isend", SendMode::Standard, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Isend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                 MPI_Request* request)
{
  return nonblocking_send("MPI_Isend_c", SendMode::Standard, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Ibsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request)
{
  return nonblocking_send("MPI_Ibsend", SendMode::Buffered, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Ibsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request)
{
  return nonblocking_send("MPI_Ibsend_c", SendMode::Buffered, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Issend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request)
{
  return nonblocking_send("MPI_Issend", SendMode::Synchronous, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Issend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request)
{
  return nonblocking_send("MPI_Issend_c", SendMode::Synchronous, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Irsend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                MPI_Request* request)
{
  return nonblocking_send("MPI_Irsend", SendMode::Ready, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Irsend_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request)
{
  return nonblocking_send("MPI_Irsend_c", SendMode::Ready, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Send_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  return persistent_send("MPI_Send_init", SendMode::Standard, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Send_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                     MPI_Request* request)
{
  return persistent_send("MPI_Send_init_c", SendMode::Standard, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Bsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request)
{
  return persistent_send("MPI_Bsend_init", SendMode::Buffered, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Bsend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request* request)
{
  return persistent_send("MPI_Bsend_init_c", SendMode::Buffered, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Ssend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request)
{
  return persistent_send("MPI_Ssend_init", SendMode::Synchronous, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Ssend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request* request)
{
  return persistent_send("MPI_Ssend_init_c", SendMode::Synchronous, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Rsend_init(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                    MPI_Request* request)
{
  return persistent_send("MPI_Rsend_init", SendMode::Ready, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Rsend_init_c(const void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
                      MPI_Request* request)
{
  return persistent_send("MPI_Rsend_init_c", SendMode::Ready, buf, count, datatype, dest, tag, comm, request);
}

int PMPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  return blocking_recv("MPI_Recv", buf, count, datatype, source, tag, comm, status);
}

int PMPI_Recv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                MPI_Status* status)
{
  return blocking_recv("MPI_Recv_c", buf, count, datatype, source, tag, comm, status);
}

int PMPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request* request)
{
  return request_recv("MPI_Irecv", false, buf, count, datatype, source, tag, comm, request);
}

int PMPI_Irecv_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                 MPI_Request* request)
{
  return request_recv("MPI_Irecv_c", false, buf, count, datatype, source, tag, comm, request);
}

int PMPI_Recv_init(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  return request_recv("MPI_Recv_init", true, buf, count, datatype, source, tag, comm, request);
}

int PMPI_Recv_init_c(void* buf, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
                     MPI_Request* request)
{
  return request_recv("MPI_Recv_init_c", true, buf, count, datatype, source, tag, comm, request);
}

int PMPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status)
{
  return sendrecv("MPI_Sendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, status, nullptr);
}

int PMPI_Sendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                    void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                    MPI_Status* status)
{
  return sendrecv("MPI_Sendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, status, nullptr);
}

int PMPI_Sendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                          int recvtag, MPI_Comm comm, MPI_Status* status)
{
  return sendrecv_replace("MPI_Sendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag, comm, status,
                          nullptr);
}

int PMPI_Sendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                            int recvtag, MPI_Comm comm, MPI_Status* status)
{
  return sendrecv_replace("MPI_Sendrecv_replace_c", buf, count, datatype, dest, sendtag, source, recvtag, comm,
                          status, nullptr);
}

int PMPI_Isendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm,
                   MPI_Request* request)
{
  return sendrecv("MPI_Isendrecv", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                  recvtag, comm, MPI_STATUS_IGNORE, request);
}

int PMPI_Isendrecv_c(const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                     void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype, int source, int recvtag,
                     MPI_Comm comm, MPI_Request* request)
{
  return sendrecv("MPI_Isendrecv_c", sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype,
                  source, recvtag, comm, MPI_STATUS_IGNORE, request);
}

int PMPI_Isendrecv_replace(void* buf, int count, MPI_Datatype datatype, int dest, int sendtag, int source,
                           int recvtag, MPI_Comm comm, MPI_Request* request)
{
  return sendrecv_replace("MPI_Isendrecv_replace", buf, count, datatype, dest, sendtag, source, recvtag, comm,
                          MPI_STATUS_IGNORE, request);
}

int PMPI_Isendrecv_replace_c(void* buf, MPI_Count count, MPI_Datatype datatype, int dest, int sendtag, int source,
                             int recvtag, MPI_Comm comm, MPI_Request* request)
{
  return sendrecv_replace("MPI_Isendrecv_replace_c", buf, count, datatype, dest, sendtag, source, recvtag, comm,
                          MPI_STATUS_IGNORE, request);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Send)
PROGSIM_MPI_ALIAS(MPI_Send_c)
PROGSIM_MPI_ALIAS(MPI_Bsend)
PROGSIM_MPI_ALIAS(MPI_Bsend_c)
PROGSIM_MPI_ALIAS(MPI_Ssend)
PROGSIM_MPI_ALIAS(MPI_Ssend_c)
PROGSIM_MPI_ALIAS(MPI_Rsend)
PROGSIM_MPI_ALIAS(MPI_Rsend_c)
PROGSIM_MPI_ALIAS(MPI_Isend)
PROGSIM_MPI_ALIAS(MPI_Isend_c)
PROGSIM_MPI_ALIAS(MPI_Ibsend)
PROGSIM_MPI_ALIAS(MPI_Ibsend_c)
PROGSIM_MPI_ALIAS(MPI_Issend)
PROGSIM_MPI_ALIAS(MPI_Issend_c)
PROGSIM_MPI_ALIAS(MPI_Irsend)
PROGSIM_MPI_ALIAS(MPI_Irsend_c)
PROGSIM_MPI_ALIAS(MPI_Send_init)
PROGSIM_MPI_ALIAS(MPI_Send_init_c)
PROGSIM_MPI_ALIAS(MPI_Bsend_init)
PROGSIM_MPI_ALIAS(MPI_Bsend_init_c)
PROGSIM_MPI_ALIAS(MPI_Ssend_init)
PROGSIM_MPI_ALIAS(MPI_Ssend_init_c)
PROGSIM_MPI_ALIAS(MPI_Rsend_init)
PROGSIM_MPI_ALIAS(MPI_Rsend_init_c)
PROGSIM_MPI_ALIAS(MPI_Recv)
PROGSIM_MPI_ALIAS(MPI_Recv_c)
PROGSIM_MPI_ALIAS(MPI_Irecv)
PROGSIM_MPI_ALIAS(MPI_Irecv_c)
PROGSIM_MPI_ALIAS(MPI_Recv_init)
PROGSIM_MPI_ALIAS(MPI_Recv_init_c)
PROGSIM_MPI_ALIAS(MPI_Sendrecv)
PROGSIM_MPI_ALIAS(MPI_Sendrecv_c)
PROGSIM_MPI_ALIAS(MPI_Sendrecv_replace)
PROGSIM_MPI_ALIAS(MPI_Sendrecv_replace_c)
PROGSIM_MPI_ALIAS(MPI_Isendrecv)
PROGSIM_MPI_ALIAS(MPI_Isendrecv_c)
PROGSIM_MPI_ALIAS(MPI_Isendrecv_replace)
PROGSIM_MPI_ALIAS(MPI_Isendrecv_replace_c)
