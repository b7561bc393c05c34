// Collectives, blocking and nonblocking: both forms share the event, the
// nonblocking one adds its request id.
#include "traces/recorder/RecorderInternals.hpp"

#include "traces/CommunicatorSizes.hpp"
#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"

namespace progsim::traces::recorder {

namespace {

Event reduction_event(const char* name, int rank, MPI_Comm comm, long long count, MPI_Datatype type, MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  add_reduction(event, rank, count, type, op);
  return event;
}

Event rooted_reduction_event(const char* name, int rank, MPI_Comm comm, int root, long long count, MPI_Datatype type,
                             MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  add_reduction(event, rank, count, type, op);
  return event;
}

template <class Count>
Event reduce_scatter_event(const char* name, int rank, MPI_Comm comm, const Count counts[], MPI_Datatype type, MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  int n = comm_size(rank, comm);
  bool items = add_reduction(event, rank, 0, type, op);
  event.erase("count");
  std::vector<long long> list;
  for (int i = 0; counts && i < n; ++i)
    list.push_back(items ? counts[i] : bytes_of(type, counts[i]));
  event["counts"] = list;
  return event;
}

// gather, scatter.
Event rooted_exchange_event(const char* name, int rank, MPI_Comm comm, int root, long long sendcount,
                            MPI_Datatype sendtype, long long recvcount, MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

Event bcast_event(const char* name, int rank, MPI_Comm comm, int root, long long count, MPI_Datatype type)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(type, count);
  return event;
}

// Whether the calling rank is `root` of `comm`: on an intercommunicator, the
// rank that passes MPI_ROOT (MPI-4.1 §6.2.2).
bool is_root(int rank, MPI_Comm comm, int root)
{
  const progsim::mpi::Communicator* c = progsim::mpi::MpiModel::instance().communicators().find(comm, rank);
  if (c && c->is_inter())
    return root == MPI_ROOT;
  return c && root >= 0 && root < c->size() && c->world_rank(root) == rank;
}

// gatherv: the list of sizes is the root's (empty at the others).
template <class Count>
Event gatherv_event(const char* name, int rank, MPI_Comm comm, int root, long long sendcount, MPI_Datatype sendtype,
                    const Count recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = is_root(rank, comm, root) ? byte_list(recvcounts, recvtype, comm_size(rank, comm))
                                              : std::vector<long long>{};
  return event;
}

// scatterv: the list of sizes is the root's (empty at the others).
template <class Count>
Event scatterv_event(const char* name, int rank, MPI_Comm comm, int root, const Count sendcounts[],
                     MPI_Datatype sendtype, long long recvcount, MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["sbytes"] = is_root(rank, comm, root) ? byte_list(sendcounts, sendtype, comm_size(rank, comm))
                                              : std::vector<long long>{};
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

template <class Count>
Event allgatherv_event(const char* name, int rank, MPI_Comm comm, long long sendcount, MPI_Datatype sendtype,
                       const Count recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = byte_list(recvcounts, recvtype, comm_size(rank, comm));
  return event;
}

template <class Count>
Event alltoallv_event(const char* name, int rank, MPI_Comm comm, const Count sendcounts[], MPI_Datatype sendtype,
                      const Count recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  int n = comm_size(rank, comm);
  event["sbytes"] = byte_list(sendcounts, sendtype, n);
  event["rbytes"] = byte_list(recvcounts, recvtype, n);
  return event;
}

template <class Count>
Event alltoallw_event(const char* name, int rank, MPI_Comm comm, const Count sendcounts[],
                      const MPI_Datatype sendtypes[], const Count recvcounts[], const MPI_Datatype recvtypes[])
{
  int n = comm_size(rank, comm);
  return w_event(name, rank, comm, byte_list(sendcounts, sendtypes, n), byte_list(recvcounts, recvtypes, n));
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Barrier(MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(comm_event("barrier", rank_, comm), PMPI_Barrier(comm));
}

// Nonblocking and persistent collectives: the blocking form's event and the
// request id.

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return comm_event("ibarrier", rank_, comm); }, request, [&] { return PMPI_Ibarrier(comm, request); });
}

int MPI_Barrier_init(MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return comm_event("barrier_init", rank_, comm); }, request, [&] { return PMPI_Barrier_init(comm, info, request); });
}

#define PROGSIM_FORMS "traces/recorder/CollectiveCalls.inc"
#include "traces/recorder/CountForms.inc"
#undef PROGSIM_FORMS

// Nonblocking and persistent forms (RequestForms.inc), in both count forms.
#define PROGSIM_REQUEST_FORMS "traces/recorder/CollectiveRequestCalls.inc"
#define PROGSIM_FORMS "traces/recorder/RequestForms.inc"
#include "traces/recorder/CountForms.inc"
#undef PROGSIM_FORMS
#undef PROGSIM_REQUEST_FORMS

}  // extern "C"
