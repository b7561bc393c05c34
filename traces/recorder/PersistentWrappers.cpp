// Persistent point-to-point requests: their *_init calls and starts.
#include "traces/recorder/RecorderInternals.hpp"

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

// Persistent point-to-point: the *_init event carries the request's id,
// which each start reuses; the request is forgotten when MPI_Request_free
// sets it to MPI_REQUEST_NULL.
int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("send_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Send_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("ssend_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Ssend_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("bsend_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Bsend_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("rsend_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Rsend_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("recv_init", source, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Recv_init(buf, count, type, source, tag, comm, request); });
}

int MPI_Start(MPI_Request* request)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "start"}, {"req", request ? request_id(rank_, *request) : -1}}), PMPI_Start(request));
}

int MPI_Startall(int count, MPI_Request requests[])
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !requests || count < 0)
    return PMPI_Startall(count, requests);
  std::vector<int> ids;
  for (int i = 0; i < count; ++i)
    ids.push_back(request_id(rank, requests[i]));
  g_recorder->write(rank, Event({{"call", "startall"}, {"reqs", ids}}));
  int err = PMPI_Startall(count, requests);
  g_recorder->returned(rank);
  return err;
}

}  // extern "C"
