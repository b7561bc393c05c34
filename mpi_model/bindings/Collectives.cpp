// MPI-4.1 chapter 6 (collective communication), blocking collectives on
// intracommunicators. The bindings check the arguments and call the interim
// algorithms of coll/ (internal point-to-point messages on the
// communicator's collective context); MPI_Reduce_local and the user
// operations are in Ops.cpp.

#include "bindings/Binding.hpp"
#include "coll/Collectives.hpp"
#include "coll/Intercomm.hpp"
#include "coll/ReduceWork.hpp"

#include <vector>

using namespace progsim;
using namespace progsim::mpi;

namespace {

int begin(const Binding& b, MPI_Comm comm, const Communicator*& c)
{
  if (int err = b.check_initialized())
    return err;
  if (int err = b.resolve_comm(comm, c))
    return err;
  coll::note_collective(b, *c, b.call());
  return MPI_SUCCESS;
}

// Intercommunicators: MPI_ROOT, MPI_PROC_NULL or a rank of the remote group.
int check_root(const Binding& b, MPI_Comm comm, const Communicator* c, int root)
{
  if (c->is_inter() && (root == MPI_ROOT || root == MPI_PROC_NULL))
    return MPI_SUCCESS;
  if (root < 0 || root >= c->size())
    return b.error(comm, MPI_ERR_ROOT,
                   "invalid root " + std::to_string(root) + " (communicator size " + std::to_string(c->size()) + ")");
  return MPI_SUCCESS;
}

// Datatype valid and committed (no count or buffer check).
int check_type(const Binding& b, MPI_Comm comm, MPI_Datatype type)
{
  return b.check_buffer(nullptr, 0, type, comm);
}

int check_counts(const Binding& b, MPI_Comm comm, const int* counts, int n, const char* what)
{
  if (!counts && n > 0)
    return b.error(comm, MPI_ERR_ARG, std::string("null ") + what + " array");
  for (int i = 0; i < n; ++i)
    if (counts[i] < 0)
      return b.error(comm, MPI_ERR_COUNT, std::string("negative ") + what + "[" + std::to_string(i) +
                                              "] = " + std::to_string(counts[i]));
  return MPI_SUCCESS;
}

int check_op(const Binding& b, MPI_Comm comm, MPI_Datatype type, MPI_Op op)
{
  coll::ReduceWork w;
  std::string detail;
  if (int err = w.init(b, type, op, detail))
    return b.error(comm, err, detail);
  return MPI_SUCCESS;
}

int no_intercomm(const Binding& b, MPI_Comm comm, const Communicator* c)
{
  if (c->is_inter())
    return b.error(comm, MPI_ERR_COMM, std::string(b.call()) + " is not defined on intercommunicators");
  return MPI_SUCCESS;
}

int check_in_place_recv(const Binding& b, MPI_Comm comm, const void* recvbuf)
{
  if (recvbuf == MPI_IN_PLACE)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as the receive buffer");
  return MPI_SUCCESS;
}

// Raises an error of the algorithm (the same on every kind of collective).
int finish(const Binding& b, MPI_Comm comm, int err)
{
  if (err == MPI_SUCCESS)
    return MPI_SUCCESS;
  std::string detail;
  if (err == MPI_ERR_TRUNCATE)
    detail = "data of the collective does not fit the receive buffer (the processes passed different counts or "
             "datatypes)";
  return b.error(comm, err, detail);
}

std::int64_t extent_of(const Binding& b, MPI_Datatype type)
{
  dt::DatatypePtr t = b.model().datatypes().find(type);
  return t ? t->extent() : 0;
}

std::vector<std::int64_t> counts_of(const int* counts, int n)
{
  std::vector<std::int64_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = counts[i];
  return v;
}

std::vector<std::int64_t> uniform(std::int64_t value, int n)
{
  return std::vector<std::int64_t>(static_cast<size_t>(n), value);
}

// Block displacements in bytes: displs[i] * extent (or i * count * extent).
std::vector<std::int64_t> byte_displs(const int* displs, int n, std::int64_t extent)
{
  std::vector<std::int64_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = static_cast<std::int64_t>(displs[i]) * extent;
  return v;
}

std::vector<std::int64_t> block_displs(std::int64_t count, int n, std::int64_t extent)
{
  std::vector<std::int64_t> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    v[static_cast<size_t>(i)] = i * count * extent;
  return v;
}

}  // namespace

extern "C" {

int PMPI_Barrier(MPI_Comm comm)
{
  Binding b("MPI_Barrier");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (c->is_inter())
    return finish(b, comm, coll::inter_barrier({b, *c, coll::kBarrierTag}));
  return finish(b, comm, coll::barrier({b, *c, coll::kBarrierTag}));
}

int PMPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm)
{
  Binding b("MPI_Bcast");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_root(b, comm, c, root))
    return err;
  if (root != MPI_PROC_NULL)
    if (int err = b.check_buffer(buffer, count, datatype, comm))
      return err;
  if (c->is_inter())
    return finish(b, comm, coll::inter_bcast({b, *c, coll::kBcastTag}, buffer, count, datatype, root));
  return finish(b, comm, coll::bcast({b, *c, coll::kBcastTag}, buffer, count, datatype, root));
}

int PMPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Binding b("MPI_Gather");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_root(b, comm, c, root))
    return err;
  if (c->is_inter()) {
    std::vector<std::int64_t> counts, displs;
    if (root == MPI_ROOT) {
      if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
        return err;
      counts = uniform(recvcount, c->size());
      displs = block_displs(recvcount, c->size(), extent_of(b, recvtype));
    } else if (root != MPI_PROC_NULL) {
      if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
        return err;
    }
    return finish(b, comm,
                  coll::inter_gatherv({b, *c, coll::kGatherTag}, sendbuf, sendcount, sendtype, recvbuf, counts,
                                      displs, recvtype, root));
  }
  bool is_root = c->my_rank == root;
  if (sendbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  std::vector<std::int64_t> counts, displs;
  if (is_root) {
    if (int err = check_in_place_recv(b, comm, recvbuf))
      return err;
    if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
      return err;
    counts = uniform(recvcount, c->size());
    displs = block_displs(recvcount, c->size(), extent_of(b, recvtype));
  }
  return finish(b, comm,
                coll::gatherv({b, *c, coll::kGatherTag}, sendbuf, sendcount, sendtype, recvbuf, counts, displs,
                              recvtype, root));
}

int PMPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                 const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Binding b("MPI_Gatherv");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_root(b, comm, c, root))
    return err;
  if (c->is_inter()) {
    std::vector<std::int64_t> counts, bytes;
    if (root == MPI_ROOT) {
      if (int err = check_counts(b, comm, recvcounts, c->size(), "recvcounts"))
        return err;
      if (!displs)
        return b.error(comm, MPI_ERR_ARG, "null displs array");
      if (int err = check_type(b, comm, recvtype))
        return err;
      counts = counts_of(recvcounts, c->size());
      bytes = byte_displs(displs, c->size(), extent_of(b, recvtype));
    } else if (root != MPI_PROC_NULL) {
      if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
        return err;
    }
    return finish(b, comm,
                  coll::inter_gatherv({b, *c, coll::kGatherTag}, sendbuf, sendcount, sendtype, recvbuf, counts, bytes,
                                      recvtype, root));
  }
  bool is_root = c->my_rank == root;
  if (sendbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  std::vector<std::int64_t> counts, bytes;
  if (is_root) {
    if (int err = check_in_place_recv(b, comm, recvbuf))
      return err;
    if (int err = check_counts(b, comm, recvcounts, c->size(), "recvcounts"))
      return err;
    if (!displs)
      return b.error(comm, MPI_ERR_ARG, "null displs array");
    if (int err = check_type(b, comm, recvtype))
      return err;
    counts = counts_of(recvcounts, c->size());
    bytes = byte_displs(displs, c->size(), extent_of(b, recvtype));
  }
  return finish(b, comm,
                coll::gatherv({b, *c, coll::kGatherTag}, sendbuf, sendcount, sendtype, recvbuf, counts, bytes,
                              recvtype, root));
}

int PMPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                 MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Binding b("MPI_Scatter");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_root(b, comm, c, root))
    return err;
  if (c->is_inter()) {
    std::vector<std::int64_t> counts, displs;
    if (root == MPI_ROOT) {
      if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
        return err;
      counts = uniform(sendcount, c->size());
      displs = block_displs(sendcount, c->size(), extent_of(b, sendtype));
    } else if (root != MPI_PROC_NULL) {
      if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
        return err;
    }
    return finish(b, comm,
                  coll::inter_scatterv({b, *c, coll::kScatterTag}, sendbuf, counts, displs, sendtype, recvbuf,
                                       recvcount, recvtype, root));
  }
  bool is_root = c->my_rank == root;
  if (recvbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (recvbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
      return err;
  std::vector<std::int64_t> counts, displs;
  if (is_root) {
    if (sendbuf == MPI_IN_PLACE)
      return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as the send buffer");
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
    counts = uniform(sendcount, c->size());
    displs = block_displs(sendcount, c->size(), extent_of(b, sendtype));
  }
  return finish(b, comm,
                coll::scatterv({b, *c, coll::kScatterTag}, sendbuf, counts, displs, sendtype, recvbuf, recvcount,
                               recvtype, root));
}

int PMPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype,
                  void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  Binding b("MPI_Scatterv");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_root(b, comm, c, root))
    return err;
  if (c->is_inter()) {
    std::vector<std::int64_t> counts, bytes;
    if (root == MPI_ROOT) {
      if (int err = check_counts(b, comm, sendcounts, c->size(), "sendcounts"))
        return err;
      if (!displs)
        return b.error(comm, MPI_ERR_ARG, "null displs array");
      if (int err = check_type(b, comm, sendtype))
        return err;
      counts = counts_of(sendcounts, c->size());
      bytes = byte_displs(displs, c->size(), extent_of(b, sendtype));
    } else if (root != MPI_PROC_NULL) {
      if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
        return err;
    }
    return finish(b, comm,
                  coll::inter_scatterv({b, *c, coll::kScatterTag}, sendbuf, counts, bytes, sendtype, recvbuf,
                                       recvcount, recvtype, root));
  }
  bool is_root = c->my_rank == root;
  if (recvbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (recvbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
      return err;
  std::vector<std::int64_t> counts, bytes;
  if (is_root) {
    if (sendbuf == MPI_IN_PLACE)
      return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is not allowed as the send buffer");
    if (int err = check_counts(b, comm, sendcounts, c->size(), "sendcounts"))
      return err;
    if (!displs)
      return b.error(comm, MPI_ERR_ARG, "null displs array");
    if (int err = check_type(b, comm, sendtype))
      return err;
    counts = counts_of(sendcounts, c->size());
    bytes = byte_displs(displs, c->size(), extent_of(b, sendtype));
  }
  return finish(b, comm,
                coll::scatterv({b, *c, coll::kScatterTag}, sendbuf, counts, bytes, sendtype, recvbuf, recvcount,
                               recvtype, root));
}

int PMPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                   MPI_Datatype recvtype, MPI_Comm comm)
{
  Binding b("MPI_Allgather");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
    return err;
  int n = c->size();
  if (c->is_inter())
    return finish(b, comm,
                  coll::inter_allgatherv({b, *c, coll::kAllgatherTag}, sendbuf, sendcount, sendtype, recvbuf,
                                         uniform(recvcount, n), block_displs(recvcount, n, extent_of(b, recvtype)),
                                         recvtype));
  return finish(b, comm,
                coll::allgather({b, *c, coll::kAllgatherTag}, sendbuf, sendcount, sendtype, recvbuf, recvcount,
                                recvtype));
}

int PMPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                    const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  Binding b("MPI_Allgatherv");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  int n = c->size();
  if (int err = check_counts(b, comm, recvcounts, n, "recvcounts"))
    return err;
  if (!displs)
    return b.error(comm, MPI_ERR_ARG, "null displs array");
  if (int err = check_type(b, comm, recvtype))
    return err;
  if (c->is_inter())
    return finish(b, comm,
                  coll::inter_allgatherv({b, *c, coll::kAllgatherTag}, sendbuf, sendcount, sendtype, recvbuf,
                                         counts_of(recvcounts, n), byte_displs(displs, n, extent_of(b, recvtype)),
                                         recvtype));
  return finish(b, comm,
                coll::allgatherv({b, *c, coll::kAllgatherTag}, sendbuf, sendcount, sendtype, recvbuf,
                                 counts_of(recvcounts, n), byte_displs(displs, n, extent_of(b, recvtype)),
                                 recvtype));
}

int PMPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                  MPI_Datatype recvtype, MPI_Comm comm)
{
  Binding b("MPI_Alltoall");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, sendcount, sendtype, comm))
      return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (int err = b.check_buffer(recvbuf, recvcount, recvtype, comm))
    return err;
  int n = c->size();
  return finish(b, comm,
                (c->is_inter() ? coll::inter_alltoallw : coll::alltoallw)({b, *c, coll::kAlltoallTag}, sendbuf, uniform(sendcount, n),
                                block_displs(sendcount, n, extent_of(b, sendtype)),
                                std::vector<MPI_Datatype>(static_cast<size_t>(n), sendtype), recvbuf,
                                uniform(recvcount, n), block_displs(recvcount, n, extent_of(b, recvtype)),
                                std::vector<MPI_Datatype>(static_cast<size_t>(n), recvtype)));
}

int PMPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                   void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  Binding b("MPI_Alltoallv");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  int n = c->size();
  bool in_place = sendbuf == MPI_IN_PLACE;
  if (!in_place) {
    if (int err = check_counts(b, comm, sendcounts, n, "sendcounts"))
      return err;
    if (!sdispls)
      return b.error(comm, MPI_ERR_ARG, "null sdispls array");
    if (int err = check_type(b, comm, sendtype))
      return err;
  }
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (int err = check_counts(b, comm, recvcounts, n, "recvcounts"))
    return err;
  if (!rdispls)
    return b.error(comm, MPI_ERR_ARG, "null rdispls array");
  if (int err = check_type(b, comm, recvtype))
    return err;
  std::vector<std::int64_t> scounts, sbytes;
  if (!in_place) {
    scounts = counts_of(sendcounts, n);
    sbytes = byte_displs(sdispls, n, extent_of(b, sendtype));
  }
  return finish(b, comm,
                (c->is_inter() ? coll::inter_alltoallw : coll::alltoallw)({b, *c, coll::kAlltoallTag}, sendbuf, scounts, sbytes,
                                std::vector<MPI_Datatype>(static_cast<size_t>(n), sendtype), recvbuf,
                                counts_of(recvcounts, n), byte_displs(rdispls, n, extent_of(b, recvtype)),
                                std::vector<MPI_Datatype>(static_cast<size_t>(n), recvtype)));
}

int PMPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[],
                   void* recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[],
                   MPI_Comm comm)
{
  Binding b("MPI_Alltoallw");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  int n = c->size();
  bool in_place = sendbuf == MPI_IN_PLACE;
  std::vector<std::int64_t> scounts, sbytes;
  std::vector<MPI_Datatype> stypes;
  if (!in_place) {
    if (int err = check_counts(b, comm, sendcounts, n, "sendcounts"))
      return err;
    if (!sdispls || !sendtypes)
      return b.error(comm, MPI_ERR_ARG, "null sdispls or sendtypes array");
    for (int i = 0; i < n; ++i)
      if (int err = check_type(b, comm, sendtypes[i]))
        return err;
    scounts = counts_of(sendcounts, n);
    sbytes = counts_of(sdispls, n);
    stypes.assign(sendtypes, sendtypes + n);
  }
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (int err = check_counts(b, comm, recvcounts, n, "recvcounts"))
    return err;
  if (!rdispls || !recvtypes)
    return b.error(comm, MPI_ERR_ARG, "null rdispls or recvtypes array");
  for (int i = 0; i < n; ++i)
    if (int err = check_type(b, comm, recvtypes[i]))
      return err;
  return finish(b, comm,
                (c->is_inter() ? coll::inter_alltoallw : coll::alltoallw)({b, *c, coll::kAlltoallTag}, sendbuf, scounts, sbytes, stypes, recvbuf,
                                counts_of(recvcounts, n), counts_of(rdispls, n),
                                std::vector<MPI_Datatype>(recvtypes, recvtypes + n)));
}

int PMPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, int root,
                MPI_Comm comm)
{
  Binding b("MPI_Reduce");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_root(b, comm, c, root))
    return err;
  if (c->is_inter()) {
    if (root == MPI_PROC_NULL)
      return MPI_SUCCESS;
    if (int err = b.check_buffer(root == MPI_ROOT ? recvbuf : sendbuf, count, datatype, comm))
      return err;
    if (int err = check_op(b, comm, datatype, op))
      return err;
    return finish(b, comm,
                  coll::inter_reduce({b, *c, coll::kReduceTag}, sendbuf, recvbuf, count, datatype, op, root));
  }
  bool is_root = c->my_rank == root;
  if (sendbuf == MPI_IN_PLACE && !is_root)
    return b.error(comm, MPI_ERR_BUFFER, "MPI_IN_PLACE is only allowed at the root");
  if (int err = b.check_buffer(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, datatype, comm))
    return err;
  if (is_root) {
    if (int err = check_in_place_recv(b, comm, recvbuf))
      return err;
    if (int err = b.check_buffer(recvbuf, count, datatype, comm))
      return err;
  }
  if (int err = check_op(b, comm, datatype, op))
    return err;
  return finish(b, comm, coll::reduce({b, *c, coll::kReduceTag}, sendbuf, recvbuf, count, datatype, op, root));
}

int PMPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  Binding b("MPI_Allreduce");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, count, datatype, comm))
      return err;
  if (int err = b.check_buffer(recvbuf, count, datatype, comm))
    return err;
  if (int err = check_op(b, comm, datatype, op))
    return err;
  if (c->is_inter())
    return finish(b, comm,
                  coll::inter_allreduce({b, *c, coll::kAllreduceTag}, sendbuf, recvbuf, count, datatype, op));
  return finish(b, comm, coll::allreduce({b, *c, coll::kAllreduceTag}, sendbuf, recvbuf, count, datatype, op));
}

int PMPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount, MPI_Datatype datatype, MPI_Op op,
                              MPI_Comm comm)
{
  Binding b("MPI_Reduce_scatter_block");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (int err = b.check_buffer(recvbuf, recvcount, datatype, comm))
    return err;
  if (int err = check_op(b, comm, datatype, op))
    return err;
  if (c->is_inter())
    return finish(b, comm,
                  coll::inter_reduce_scatter({b, *c, coll::kReduceScatterTag}, sendbuf, recvbuf,
                                             uniform(recvcount, c->group->size()), datatype, op));
  return finish(b, comm,
                coll::reduce_scatter({b, *c, coll::kReduceScatterTag}, sendbuf, recvbuf,
                                     uniform(recvcount, c->size()), datatype, op));
}

int PMPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[], MPI_Datatype datatype, MPI_Op op,
                        MPI_Comm comm)
{
  Binding b("MPI_Reduce_scatter");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (int err = check_counts(b, comm, recvcounts, c->group->size(), "recvcounts"))
    return err;
  if (int err = b.check_buffer(recvbuf, recvcounts[c->my_rank], datatype, comm))
    return err;
  if (int err = check_op(b, comm, datatype, op))
    return err;
  if (c->is_inter())
    return finish(b, comm,
                  coll::inter_reduce_scatter({b, *c, coll::kReduceScatterTag}, sendbuf, recvbuf,
                                             counts_of(recvcounts, c->group->size()), datatype, op));
  return finish(b, comm,
                coll::reduce_scatter({b, *c, coll::kReduceScatterTag}, sendbuf, recvbuf,
                                     counts_of(recvcounts, c->size()), datatype, op));
}

int PMPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  Binding b("MPI_Scan");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = no_intercomm(b, comm, c))
    return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, count, datatype, comm))
      return err;
  if (int err = b.check_buffer(recvbuf, count, datatype, comm))
    return err;
  if (int err = check_op(b, comm, datatype, op))
    return err;
  return finish(b, comm, coll::scan({b, *c, coll::kScanTag}, sendbuf, recvbuf, count, datatype, op));
}

int PMPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm)
{
  Binding b("MPI_Exscan");
  const Communicator* c = nullptr;
  if (int err = begin(b, comm, c))
    return err;
  if (int err = no_intercomm(b, comm, c))
    return err;
  if (int err = check_in_place_recv(b, comm, recvbuf))
    return err;
  if (sendbuf != MPI_IN_PLACE)
    if (int err = b.check_buffer(sendbuf, count, datatype, comm))
      return err;
  if (c->my_rank > 0)
    if (int err = b.check_buffer(recvbuf, count, datatype, comm))
      return err;
  if (int err = check_op(b, comm, datatype, op))
    return err;
  return finish(b, comm, coll::exscan({b, *c, coll::kExscanTag}, sendbuf, recvbuf, count, datatype, op));
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Barrier)
PROGSIM_MPI_ALIAS(MPI_Bcast)
PROGSIM_MPI_ALIAS(MPI_Gather)
PROGSIM_MPI_ALIAS(MPI_Gatherv)
PROGSIM_MPI_ALIAS(MPI_Scatter)
PROGSIM_MPI_ALIAS(MPI_Scatterv)
PROGSIM_MPI_ALIAS(MPI_Allgather)
PROGSIM_MPI_ALIAS(MPI_Allgatherv)
PROGSIM_MPI_ALIAS(MPI_Alltoall)
PROGSIM_MPI_ALIAS(MPI_Alltoallv)
PROGSIM_MPI_ALIAS(MPI_Alltoallw)
PROGSIM_MPI_ALIAS(MPI_Reduce)
PROGSIM_MPI_ALIAS(MPI_Allreduce)
PROGSIM_MPI_ALIAS(MPI_Reduce_scatter_block)
PROGSIM_MPI_ALIAS(MPI_Reduce_scatter)
PROGSIM_MPI_ALIAS(MPI_Scan)
PROGSIM_MPI_ALIAS(MPI_Exscan)
