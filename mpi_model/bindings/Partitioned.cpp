// MPI-4.1 chapter 4: partitioned point-to-point communication. The bindings
// check the arguments (the erroneous uses of §4.2: MPI_Pready on an
// inactive request or twice on one partition in an epoch, a partition out
// of range, wildcards) and delegate to p2p/partitioned/. MPI_Start, the
// wait and test families and MPI_Request_free work on these requests as on
// other persistent ones; MPI_Parrived is in Requests.cpp (a test procedure).

#include "bindings/Partitioned.hpp"

#include <vector>

using namespace progsim;
using namespace progsim::mpi;

namespace progsim::mpi {

namespace {

int partitioned_request(const Binding& b, MPI_Request handle, RequestPtr& request)
{
  if (int err = b.check_initialized())
    return err;
  request = handle == MPI_REQUEST_NULL ? nullptr : b.model().requests().find(handle);
  if (!request)
    return b.error(MPI_COMM_WORLD, MPI_ERR_REQUEST,
                   handle == MPI_REQUEST_NULL ? "MPI_REQUEST_NULL" : "invalid request handle");
  return MPI_SUCCESS;
}

}  // namespace

int partitioned_send(const Binding& b, MPI_Request handle, RequestPtr& request, PartitionedSend*& send)
{
  if (int err = partitioned_request(b, handle, request))
    return err;
  send = dynamic_cast<PartitionedSend*>(request->rare().partitioned.get());
  if (!send)
    return b.error(request->comm_handle, MPI_ERR_REQUEST,
                   std::string("the request of ") + request->call +
                       " is not a partitioned send request (MPI_Psend_init)");
  return MPI_SUCCESS;
}

int partitioned_recv(const Binding& b, MPI_Request handle, RequestPtr& request, PartitionedRecv*& recv)
{
  if (int err = partitioned_request(b, handle, request))
    return err;
  recv = dynamic_cast<PartitionedRecv*>(request->rare().partitioned.get());
  if (!recv)
    return b.error(request->comm_handle, MPI_ERR_REQUEST,
                   std::string("the request of ") + request->call +
                       " is not a partitioned receive request (MPI_Precv_init)");
  return MPI_SUCCESS;
}

int check_partition(const Binding& b, const Request& request, int partition, int partitions)
{
  if (partition < 0 || partition >= partitions)
    return b.error(request.comm_handle, MPI_ERR_ARG,
                   "partition " + std::to_string(partition) + " is out of range: the request of " + request.call +
                       " has " + std::to_string(partitions) + " partition(s), numbered 0 to " +
                       std::to_string(partitions - 1));
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi

namespace {

// The arguments both initialization calls share; `receive` selects the
// source/destination wording.
int partitioned_args(const Binding& b, const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype,
                     int peer, int tag, MPI_Comm comm, bool receive, OperationArgs& args)
{
  if (int err = b.check_initialized())
    return err;
  if (partitions < 0)
    return b.error(comm, MPI_ERR_ARG, "negative number of partitions " + std::to_string(partitions));
  if (count < 0)
    return b.error(comm, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (partitions > 0 && count > INT64_MAX / partitions)
    return b.error(comm, MPI_ERR_COUNT,
                   std::to_string(partitions) + " partitions of count " + std::to_string(count) + " overflow 64 bits");
  // Partitioned receives name their source and tag (MPI-4.1 §4.2.1: no wildcards).
  if (receive && peer == MPI_ANY_SOURCE)
    return b.error(comm, MPI_ERR_RANK, "MPI_ANY_SOURCE: partitioned communication does not allow wildcards");
  if (receive && tag == MPI_ANY_TAG)
    return b.error(comm, MPI_ERR_TAG, "MPI_ANY_TAG: partitioned communication does not allow wildcards");
  return b.p2p_args(buf, static_cast<std::int64_t>(partitions) * count, datatype, peer, tag, comm, receive, args);
}

template <class Operation, class... Extra>
int init_partitioned(const Binding& b, RequestPtr r, int partitions, MPI_Request* request, Extra... extra)
{
  r->kind = RequestKind::Partitioned;
  r->persistent = true;
  r->state = RequestState::Inactive;
  auto op = std::make_shared<Operation>(b.p2p(), r, partitions, extra...);
  r->writable_rare().partitioned = op;
  if (int err = op->init())
    return b.error(r->comm_handle, err, "the matching handshake could not be sent");
  *request = hand_out(b, r);
  return MPI_SUCCESS;
}

// Marks `list` ready after checking every entry (a failing call marks none).
int pready(const Binding& b, MPI_Request handle, const std::vector<int>& list)
{
  RequestPtr r;
  PartitionedSend* send = nullptr;
  if (int err = partitioned_send(b, handle, r, send))
    return err;
  if (!r->active())
    return b.error(r->comm_handle, MPI_ERR_REQUEST,
                   std::string("the partitioned send request of ") + r->call +
                       " is inactive: MPI_Pready needs an epoch started by MPI_Start (MPI-4.1 §4.2.2)");
  std::vector<bool> seen(static_cast<size_t>(send->partitions()), false);
  for (int p : list) {
    if (int err = check_partition(b, *r, p, send->partitions()))
      return err;
    if (send->ready(p) || seen[static_cast<size_t>(p)])
      return b.error(r->comm_handle, MPI_ERR_ARG,
                     "partition " + std::to_string(p) +
                         " is already ready in this epoch: marking a partition ready twice before the request "
                         "completes is erroneous (MPI-4.1 §4.2.2)");
    seen[static_cast<size_t>(p)] = true;
  }
  for (int p : list)
    send->pready(p);
  b.model().pending_buffers().partitions_ready(*r, list, b.call());
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                    MPI_Comm comm, MPI_Info, MPI_Request* request)
{
  Binding b("MPI_Psend_init");
  OperationArgs args;
  if (int err = partitioned_args(b, buf, partitions, count, datatype, dest, tag, comm, false, args))
    return err;
  RequestPtr r = b.p2p().make_send(b.world(), SendMode::Standard, args);
  std::size_t partition_bytes = r->type ? static_cast<std::size_t>(r->type->size() * count) : 0;
  PartitionLayout layout =
      make_partition_layout(b.model().parameters().part_aggregation, partitions, partition_bytes);
  return init_partitioned<PartitionedSend>(b, r, partitions, request, static_cast<std::int64_t>(count), layout);
}

int PMPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                    MPI_Comm comm, MPI_Info, MPI_Request* request)
{
  Binding b("MPI_Precv_init");
  OperationArgs args;
  if (int err = partitioned_args(b, buf, partitions, count, datatype, source, tag, comm, true, args))
    return err;
  RequestPtr r = b.p2p().make_recv(b.world(), args);
  std::size_t partition_bytes = r->type ? static_cast<std::size_t>(r->type->size() * count) : 0;
  return init_partitioned<PartitionedRecv>(b, r, partitions, request, partition_bytes);
}

int PMPI_Pready(int partition, MPI_Request request)
{
  Binding b("MPI_Pready");
  return pready(b, request, {partition});
}

int PMPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
  Binding b("MPI_Pready_range");
  RequestPtr r;
  PartitionedSend* send = nullptr;
  if (int err = partitioned_send(b, request, r, send))
    return err;
  if (partition_low > partition_high)
    return b.error(r->comm_handle, MPI_ERR_ARG,
                   "partition_low " + std::to_string(partition_low) + " is above partition_high " +
                       std::to_string(partition_high));
  if (int err = check_partition(b, *r, partition_low, send->partitions()))
    return err;
  if (int err = check_partition(b, *r, partition_high, send->partitions()))
    return err;
  std::vector<int> list;
  for (int p = partition_low; p <= partition_high; ++p)
    list.push_back(p);
  return pready(b, request, list);
}

int PMPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
  Binding b("MPI_Pready_list");
  if (length < 0 || (length > 0 && !array_of_partitions)) {
    RequestPtr r;
    PartitionedSend* send = nullptr;
    if (int err = partitioned_send(b, request, r, send))
      return err;
    return b.error(r->comm_handle, MPI_ERR_ARG,
                   length < 0 ? "negative length " + std::to_string(length) : std::string("null array_of_partitions"));
  }
  return pready(b, request, std::vector<int>(array_of_partitions, array_of_partitions + length));
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Psend_init)
PROGSIM_MPI_ALIAS(MPI_Precv_init)
PROGSIM_MPI_ALIAS(MPI_Pready)
PROGSIM_MPI_ALIAS(MPI_Pready_range)
PROGSIM_MPI_ALIAS(MPI_Pready_list)
