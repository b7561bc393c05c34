// Point-to-point: the blocking and nonblocking sends and receives (standard,
// synchronous, buffered, ready), MPI_Sendrecv(_replace) and the attached buffer.
#include "traces/recorder/RecorderInternals.hpp"

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("send", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Send(buf, count, type, dest, tag, comm));
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("ssend", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Ssend(buf, count, type, dest, tag, comm));
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
  g_recorder->write(rank, p2p("recv", rank, source, tag, comm, bytes_of(type, count)));
  CompletionStatus completion(status, g_recorder->wants_completions());
  int err = PMPI_Recv(buf, count, type, source, tag, comm, completion.get());
  completion.report(rank, -1, err);
  return err;
}

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("isend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Isend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("issend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Issend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("irecv", source, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Irecv(buf, count, type, source, tag, comm, request); });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank >= 0) {
    Event event = p2p("sendrecv", rank, dest, sendtag, comm, bytes_of(sendtype, sendcount));
    event["source"] = source;
    event["rtag"] = recvtag;
    event["rbytes"] = bytes_of(recvtype, recvcount);
    g_recorder->write(rank, event);
  }
  CompletionStatus completion(status, rank >= 0 && g_recorder->wants_completions());
  int err = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                          recvtag, comm, completion.get());
  if (rank >= 0)
    completion.report(rank, -1, err);
  return err;
}

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("bsend", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Bsend(buf, count, type, dest, tag, comm));
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("rsend", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Rsend(buf, count, type, dest, tag, comm));
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("ibsend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Ibsend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("irsend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Irsend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Buffer_attach(void* buffer, int size)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "buffer_attach"}, {"bytes", size}}), PMPI_Buffer_attach(buffer, size));
}

int MPI_Buffer_detach(void* buffer_addr, int* size)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "buffer_detach"}}), PMPI_Buffer_detach(buffer_addr, size));
}

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "sendrecv_replace"}, {"peer", dest}, {"tag", sendtag}, {"bytes", bytes_of(type, count)},
                        {"source", source}, {"rtag", recvtag}, {"comm", comm_id(rank_, comm)}}),
                 PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status));
}

}  // extern "C"
