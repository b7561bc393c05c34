// Collectives, blocking and nonblocking: both forms share the event, the
// nonblocking one adds its request id.
#include "traces/recorder/RecorderInternals.hpp"

#include "traces/CommunicatorSizes.hpp"
#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"

namespace progsim::traces::recorder {

namespace {

Event reduction_event(const char* name, int rank, MPI_Comm comm, int count, MPI_Datatype type, MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  add_reduction(event, count, type, op);
  return event;
}

Event rooted_reduction_event(const char* name, int rank, MPI_Comm comm, int root, int count, MPI_Datatype type,
                             MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  add_reduction(event, count, type, op);
  return event;
}

Event reduce_scatter_event(const char* name, int rank, MPI_Comm comm, const int counts[], MPI_Datatype type, MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  int n = comm_size(rank, comm);
  bool predefined = predefined_datatype_name(type) && predefined_op_name(op);
  std::vector<long long> list;
  for (int i = 0; counts && i < n; ++i)
    list.push_back(predefined ? counts[i] : bytes_of(type, counts[i]));
  add_reduction(event, 0, type, op);
  event.erase("count");
  event["counts"] = list;
  return event;
}

// gather, scatter.
Event rooted_exchange_event(const char* name, int rank, MPI_Comm comm, int root, int sendcount,
                            MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

Event bcast_event(const char* name, int rank, MPI_Comm comm, int root, int count, MPI_Datatype type)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(type, count);
  return event;
}

// Whether the calling rank is `root` of `comm`.
bool is_root(int rank, MPI_Comm comm, int root)
{
  const progsim::mpi::Communicator* c = progsim::mpi::MpiModel::instance().communicators().find(comm, rank);
  return c && root >= 0 && root < c->size() && c->world_rank(root) == rank;
}

// gatherv: the list of sizes is the root's (empty at the others).
Event gatherv_event(const char* name, int rank, MPI_Comm comm, int root, int sendcount, MPI_Datatype sendtype,
                    const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = is_root(rank, comm, root) ? byte_list(recvcounts, recvtype, comm_size(rank, comm))
                                              : std::vector<long long>{};
  return event;
}

// scatterv: the list of sizes is the root's (empty at the others).
Event scatterv_event(const char* name, int rank, MPI_Comm comm, int root, const int sendcounts[],
                     MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["sbytes"] = is_root(rank, comm, root) ? byte_list(sendcounts, sendtype, comm_size(rank, comm))
                                              : std::vector<long long>{};
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

Event allgatherv_event(const char* name, int rank, MPI_Comm comm, int sendcount, MPI_Datatype sendtype,
                       const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = byte_list(recvcounts, recvtype, comm_size(rank, comm));
  return event;
}

Event alltoallv_event(const char* name, int rank, MPI_Comm comm, const int sendcounts[], MPI_Datatype sendtype,
                      const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  int n = comm_size(rank, comm);
  event["sbytes"] = byte_list(sendcounts, sendtype, n);
  event["rbytes"] = byte_list(recvcounts, recvtype, n);
  return event;
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

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(bcast_event("bcast", rank_, comm, root, count, type), PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(rooted_reduction_event("reduce", rank_, comm, root, count, type, op), PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("allreduce", rank_, comm, count, type, op), PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("scan", rank_, comm, count, type, op), PMPI_Scan(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("exscan", rank_, comm, count, type, op), PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("reduce_scatter_block", rank_, comm, count, type, op), PMPI_Reduce_scatter_block(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int counts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduce_scatter_event("reduce_scatter", rank_, comm, counts, type, op), PMPI_Reduce_scatter(sendbuf, recvbuf, counts, type, op, comm));
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("alltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("allgather", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(rooted_exchange_event("gather", rank_, comm, root, sendcount, sendtype, recvcount, recvtype), PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(rooted_exchange_event("scatter", rank_, comm, root, sendcount, sendtype, recvcount, recvtype), PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(alltoallv_event("alltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype), PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(gatherv_event("gatherv", rank_, comm, root, sendcount, sendtype, recvcounts, recvtype), PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(scatterv_event("scatterv", rank_, comm, root, sendcounts, sendtype, recvcount, recvtype), PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(allgatherv_event("allgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype), PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}

// Nonblocking collectives: the blocking form's event and the request id.

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return comm_event("ibarrier", rank_, comm); }, request, [&] { return PMPI_Ibarrier(comm, request); });
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return bcast_event("ibcast", rank_, comm, root, count, type); }, request, [&] { return PMPI_Ibcast(buf, count, type, root, comm, request); });
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return rooted_reduction_event("ireduce", rank_, comm, root, count, type, op); }, request, [&] { return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request); });
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("iallreduce", rank_, comm, count, type, op); }, request, [&] { return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("iscan", rank_, comm, count, type, op); }, request, [&] { return PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("iexscan", rank_, comm, count, type, op); }, request, [&] { return PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("ireduce_scatter_block", rank_, comm, count, type, op); }, request, [&] { return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int counts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduce_scatter_event("ireduce_scatter", rank_, comm, counts, type, op); }, request, [&] { return PMPI_Ireduce_scatter(sendbuf, recvbuf, counts, type, op, comm, request); });
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("ialltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("iallgather", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return rooted_exchange_event("igather", rank_, comm, root, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request); });
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return rooted_exchange_event("iscatter", rank_, comm, root, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request); });
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return alltoallv_event("ialltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request); });
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return gatherv_event("igatherv", rank_, comm, root, sendcount, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request); });
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return scatterv_event("iscatterv", rank_, comm, root, sendcounts, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request); });
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return allgatherv_event("iallgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request); });
}

}  // extern "C"
