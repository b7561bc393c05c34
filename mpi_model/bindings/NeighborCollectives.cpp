// MPI-4.1 §8.6 (neighborhood collective communication), blocking forms.
// The bindings check the arguments, turn each call into its list of send
// and receive blocks and run topology::neighbor_alltoallw, an exchange of
// internal point-to-point messages with the communicator's neighbours.
// Displacements of the v forms are in elements of the datatype's extent,
// those of MPI_Neighbor_alltoallw in bytes. MPI_IN_PLACE is not allowed
// (§8.6). The nonblocking forms (§8.7) return one request over the same
// messages (topology::neighbor_request); the persistent forms (§8.8) wait for
// the collectives' schedule engine (NotImplemented.cpp).

#include "bindings/Binding.hpp"
#include "coll/Collectives.hpp"
#include "topology/NeighborExchange.hpp"

#include <tuple>
#include <vector>

using namespace progsim;
using namespace progsim::mpi;
using topology::RecvBlock;
using topology::SendBlock;

namespace {

// One call: its binding, communicator and neighbourhood.
struct NeighborCall {
  NeighborCall(const Binding& binding, MPI_Comm comm_handle) : b(binding), handle(comm_handle) {}

  const Binding& b;
  MPI_Comm handle;
  const Communicator* comm = nullptr;
  topology::Neighbors n;

  int indegree() const { return static_cast<int>(n.sources.size()); }
  int outdegree() const { return static_cast<int>(n.destinations.size()); }
};

// Checks the communicator, the buffers' MPI_IN_PLACE and the request
// pointer (nonblocking forms); records the collective call.
int begin(NeighborCall& call, const void* sendbuf, const void* recvbuf, const MPI_Request* request,
          bool nonblocking)
{
  const Binding& b = call.b;
  if (int err = b.check_initialized())
    return err;
  if (int err = b.resolve_comm(call.handle, call.comm))
    return err;
  if (call.comm->is_inter())
    return b.error(call.handle, MPI_ERR_COMM, "neighborhood collectives need an intracommunicator with a topology");
  if (!call.comm->topology)
    return b.error(call.handle, MPI_ERR_TOPOLOGY, "the communicator has no topology (MPI_Cart_create & co.)");
  coll::note_collective(b, *call.comm, b.call());
  if (sendbuf == MPI_IN_PLACE || recvbuf == MPI_IN_PLACE)
    return b.error(call.handle, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed in neighborhood collectives");
  if (nonblocking && !request)
    return b.error(call.handle, MPI_ERR_REQUEST, "null request pointer");
  call.n = call.comm->topology->neighbors(call.comm->my_rank);
  return MPI_SUCCESS;
}

// A block's buffer: valid count and committed type.
int check_block(const NeighborCall& call, const void* buf, std::int64_t count, MPI_Datatype type)
{
  return call.b.check_buffer(buf, count, type, call.handle);
}

int check_array(const NeighborCall& call, const void* array, int n, const char* what)
{
  if (n > 0 && !array)
    return call.b.error(call.handle, MPI_ERR_ARG, std::string("null ") + what + " array");
  return MPI_SUCCESS;
}

std::int64_t extent_of(const NeighborCall& call, MPI_Datatype type)
{
  dt::DatatypePtr t = call.b.model().datatypes().find(type);
  return t ? t->extent() : 0;
}

std::byte* at(const void* base, std::int64_t byte_offset)
{
  return static_cast<std::byte*>(const_cast<void*>(base)) + byte_offset;
}

// `count` elements of `type` at element offset displs[i] (or i * count
// when displs is null) of `base`, one block per neighbour.
std::vector<RecvBlock> blocks(const NeighborCall& call, const void* base, int n, const int* counts, int count,
                              const int* displs, MPI_Datatype type)
{
  std::int64_t extent = extent_of(call, type);
  std::vector<RecvBlock> out;
  for (int i = 0; i < n; ++i) {
    std::int64_t c = counts ? counts[i] : count;
    std::int64_t offset = displs ? static_cast<std::int64_t>(displs[i]) * extent : i * c * extent;
    out.push_back({at(base, offset), c, type});
  }
  return out;
}

std::vector<SendBlock> as_sends(const std::vector<RecvBlock>& blocks)
{
  std::vector<SendBlock> out;
  for (const RecvBlock& r : blocks)
    out.push_back({r.buf, r.count, r.type});
  return out;
}

// Checks each block of a v/w list (count >= 0, type committed).
template <class Block>
int check_blocks(const NeighborCall& call, const std::vector<Block>& list)
{
  for (const Block& blk : list)
    if (int err = check_block(call, blk.buf, blk.count, blk.type))
      return err;
  return MPI_SUCCESS;
}

int raise(const NeighborCall& call, int err)
{
  if (err == MPI_SUCCESS)
    return MPI_SUCCESS;
  return call.b.error(call.handle, err,
                      err == MPI_ERR_TRUNCATE ? "a neighbour sent more data than its receive block holds (the "
                                                "processes passed different counts or datatypes)"
                                              : "the neighborhood exchange failed");
}

// Blocking (request == nullptr): exchanges and returns; nonblocking: starts
// the exchange and returns its request.
int run(const NeighborCall& call, const std::vector<SendBlock>& sends, const std::vector<RecvBlock>& recvs,
        MPI_Request* request)
{
  if (!request)
    return raise(call, topology::neighbor_alltoallw(call.b, *call.comm, call.n, sends, recvs));
  std::vector<RequestPtr> parts = topology::start_neighbor_exchange(call.b, *call.comm, call.n, sends, recvs);
  *request = call.b.model().requests().insert(topology::neighbor_request(call.b, *call.comm, std::move(parts)));
  return MPI_SUCCESS;
}

int allgather(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
              int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, bool nonblocking)
{
  Binding b(name);
  NeighborCall call{b, comm};
  if (int err = begin(call, sendbuf, recvbuf, request, nonblocking))
    return err;
  if (int err = check_block(call, sendbuf, sendcount, sendtype))
    return err;
  if (int err = check_block(call, recvbuf, recvcount, recvtype))
    return err;
  std::vector<SendBlock> sends(static_cast<size_t>(call.outdegree()), SendBlock{sendbuf, sendcount, sendtype});
  return run(call, sends, blocks(call, recvbuf, call.indegree(), nullptr, recvcount, nullptr, recvtype), request);
}

int allgatherv(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
               MPI_Request* request, bool nonblocking)
{
  Binding b(name);
  NeighborCall call{b, comm};
  if (int err = begin(call, sendbuf, recvbuf, request, nonblocking))
    return err;
  if (int err = check_block(call, sendbuf, sendcount, sendtype))
    return err;
  if (int err = check_array(call, recvcounts, call.indegree(), "recvcounts"))
    return err;
  if (int err = check_array(call, displs, call.indegree(), "displs"))
    return err;
  std::vector<RecvBlock> recvs = blocks(call, recvbuf, call.indegree(), recvcounts, 0, displs, recvtype);
  if (int err = check_blocks(call, recvs))
    return err;
  std::vector<SendBlock> sends(static_cast<size_t>(call.outdegree()), SendBlock{sendbuf, sendcount, sendtype});
  return run(call, sends, recvs, request);
}

int alltoall(const char* name, const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
             int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, bool nonblocking)
{
  Binding b(name);
  NeighborCall call{b, comm};
  if (int err = begin(call, sendbuf, recvbuf, request, nonblocking))
    return err;
  if (int err = check_block(call, sendbuf, sendcount, sendtype))
    return err;
  if (int err = check_block(call, recvbuf, recvcount, recvtype))
    return err;
  return run(call, as_sends(blocks(call, sendbuf, call.outdegree(), nullptr, sendcount, nullptr, sendtype)),
             blocks(call, recvbuf, call.indegree(), nullptr, recvcount, nullptr, recvtype), request);
}

int alltoallv(const char* name, const void* sendbuf, const int sendcounts[], const int sdispls[],
              MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
              MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request, bool nonblocking)
{
  Binding b(name);
  NeighborCall call{b, comm};
  if (int err = begin(call, sendbuf, recvbuf, request, nonblocking))
    return err;
  if (int err = check_array(call, sendcounts, call.outdegree(), "sendcounts"))
    return err;
  if (int err = check_array(call, sdispls, call.outdegree(), "sdispls"))
    return err;
  if (int err = check_array(call, recvcounts, call.indegree(), "recvcounts"))
    return err;
  if (int err = check_array(call, rdispls, call.indegree(), "rdispls"))
    return err;
  std::vector<SendBlock> sends = as_sends(blocks(call, sendbuf, call.outdegree(), sendcounts, 0, sdispls, sendtype));
  std::vector<RecvBlock> recvs = blocks(call, recvbuf, call.indegree(), recvcounts, 0, rdispls, recvtype);
  if (int err = check_blocks(call, sends))
    return err;
  if (int err = check_blocks(call, recvs))
    return err;
  return run(call, sends, recvs, request);
}

int alltoallw(const char* name, const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
              const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[], const MPI_Aint rdispls[],
              const MPI_Datatype recvtypes[], MPI_Comm comm, MPI_Request* request, bool nonblocking)
{
  Binding b(name);
  NeighborCall call{b, comm};
  if (int err = begin(call, sendbuf, recvbuf, request, nonblocking))
    return err;
  int out = call.outdegree(), in = call.indegree();
  for (auto [array, n, what] : {std::tuple<const void*, int, const char*>{sendcounts, out, "sendcounts"},
                                {sdispls, out, "sdispls"},
                                {sendtypes, out, "sendtypes"},
                                {recvcounts, in, "recvcounts"},
                                {rdispls, in, "rdispls"},
                                {recvtypes, in, "recvtypes"}})
    if (int err = check_array(call, array, n, what))
      return err;
  std::vector<SendBlock> sends;
  for (int j = 0; j < out; ++j)
    sends.push_back({at(sendbuf, sdispls[j]), sendcounts[j], sendtypes[j]});
  std::vector<RecvBlock> recvs;
  for (int i = 0; i < in; ++i)
    recvs.push_back({at(recvbuf, rdispls[i]), recvcounts[i], recvtypes[i]});
  if (int err = check_blocks(call, sends))
    return err;
  if (int err = check_blocks(call, recvs))
    return err;
  return run(call, sends, recvs, request);
}

}  // namespace

extern "C" {

int PMPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm)
{
  return allgather("MPI_Neighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                   nullptr, false);
}

int PMPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  return allgather("MPI_Ineighbor_allgather", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm,
                   request, true);
}

int PMPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  return allgatherv("MPI_Neighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                    comm, nullptr, false);
}

int PMPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                              const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm,
                              MPI_Request* request)
{
  return allgatherv("MPI_Ineighbor_allgatherv", sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype,
                    comm, request, true);
}

int PMPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                           MPI_Datatype recvtype, MPI_Comm comm)
{
  return alltoall("MPI_Neighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, nullptr,
                  false);
}

int PMPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                            MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  return alltoall("MPI_Ineighbor_alltoall", sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request,
                  true);
}

int PMPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                            void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                            MPI_Comm comm)
{
  return alltoallv("MPI_Neighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                   recvtype, comm, nullptr, false);
}

int PMPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype,
                             MPI_Comm comm, MPI_Request* request)
{
  return alltoallv("MPI_Ineighbor_alltoallv", sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls,
                   recvtype, comm, request, true);
}

int PMPI_Neighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                            const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                            const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm)
{
  return alltoallw("MPI_Neighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                   recvtypes, comm, nullptr, false);
}

int PMPI_Ineighbor_alltoallw(const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                             MPI_Request* request)
{
  return alltoallw("MPI_Ineighbor_alltoallw", sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls,
                   recvtypes, comm, request, true);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Neighbor_allgather)
PROGSIM_MPI_ALIAS(MPI_Neighbor_allgatherv)
PROGSIM_MPI_ALIAS(MPI_Neighbor_alltoall)
PROGSIM_MPI_ALIAS(MPI_Neighbor_alltoallv)
PROGSIM_MPI_ALIAS(MPI_Neighbor_alltoallw)
PROGSIM_MPI_ALIAS(MPI_Ineighbor_allgather)
PROGSIM_MPI_ALIAS(MPI_Ineighbor_allgatherv)
PROGSIM_MPI_ALIAS(MPI_Ineighbor_alltoall)
PROGSIM_MPI_ALIAS(MPI_Ineighbor_alltoallv)
PROGSIM_MPI_ALIAS(MPI_Ineighbor_alltoallw)
