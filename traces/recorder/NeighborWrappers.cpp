// Neighborhood collectives, blocking and nonblocking: their lists of sizes
// have one entry per neighbor of the communicator's virtual topology.
#include "traces/recorder/RecorderInternals.hpp"

#include "traces/CommunicatorSizes.hpp"

namespace progsim::traces::recorder {

namespace {

Event neighbor_allgatherv_event(const char* name, int rank, MPI_Comm comm, int sendcount, MPI_Datatype sendtype,
                                const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = byte_list(recvcounts, recvtype, neighbor_degrees(rank, comm).first);
  return event;
}

Event neighbor_alltoallv_event(const char* name, int rank, MPI_Comm comm, const int sendcounts[],
                               MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  auto [in, out] = neighbor_degrees(rank, comm);
  event["sbytes"] = byte_list(sendcounts, sendtype, out);
  event["rbytes"] = byte_list(recvcounts, recvtype, in);
  return event;
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("neighbor_allgather", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("neighbor_alltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(neighbor_allgatherv_event("neighbor_allgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype), PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(neighbor_alltoallv_event("neighbor_alltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype), PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("ineighbor_allgather", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("ineighbor_alltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return neighbor_allgatherv_event("ineighbor_allgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request); });
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return neighbor_alltoallv_event("ineighbor_alltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request); });
}

}  // extern "C"
