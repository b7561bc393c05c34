// MPI-4.1 §8.6-8.8: the neighborhood collectives, each blocking (§8.6),
// nonblocking (MPI_Ineighbor_*, §8.7) and persistent (MPI_Neighbor_*_init,
// §8.8). A procedure checks its arguments and turns the call into its list
// of send and receive blocks (topology::NeighborExchange); the three forms
// then run the same one-round schedule of the collectives' engine
// (coll/ScheduleRunner.hpp), as the collectives of chapter 6 do
// (bindings/Collectives.cpp):
//   blocking    started and waited for inside the call;
//   nonblocking started, returned as a request (MPI_Wait & co.);
//   persistent  an inactive request; each MPI_Start runs the exchange again
//               with the buffers' current contents.
// Displacements of the v forms are in elements of the datatype's extent,
// those of MPI_Neighbor_alltoallw in bytes. MPI_IN_PLACE is not allowed
// (§8.6).

#include "bindings/Binding.hpp"
#include "coll/Collectives.hpp"
#include "coll/ScheduleRunner.hpp"
#include "topology/NeighborExchange.hpp"
#include "topology/TopologyTags.hpp"

#include <tuple>
#include <vector>

using namespace progsim;
using namespace progsim::mpi;
using topology::RecvBlock;
using topology::SendBlock;

namespace {

enum class Form { Blocking, Nonblocking, Persistent };

// One call: its binding, communicator, form and exchange.
struct NeighborCall {
  NeighborCall(const Binding& binding, MPI_Comm comm_handle, Form call_form, MPI_Request* call_request = nullptr)
      : b(binding), handle(comm_handle), form(call_form), request(call_request)
  {
  }

  const Binding& b;
  MPI_Comm handle;
  Form form;
  MPI_Request* request;
  const Communicator* comm = nullptr;
  topology::NeighborExchange x;

  int indegree() const { return static_cast<int>(x.n.sources.size()); }
  int outdegree() const { return static_cast<int>(x.n.destinations.size()); }
};

// Checks the communicator, the buffers' MPI_IN_PLACE and the request
// pointer (nonblocking and persistent forms); records the collective call.
int begin(NeighborCall& call, const void* sendbuf, const void* recvbuf)
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
  if (call.form != Form::Blocking && !call.request)
    return b.error(call.handle, MPI_ERR_REQUEST, "null request pointer");
  call.x.n = call.comm->topology->neighbors(call.comm->my_rank);
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

// `count` elements of `type` at element offset i * count of `base`, one
// block per neighbour (allgather, alltoall).
std::vector<RecvBlock> uniform_blocks(const NeighborCall& call, const void* base, int n, std::int64_t count,
                                      MPI_Datatype type)
{
  std::int64_t extent = extent_of(call, type);
  std::vector<RecvBlock> out;
  for (int i = 0; i < n; ++i)
    out.push_back({at(base, i * count * extent), count, type});
  return out;
}

// counts[i] elements of `type` at element offset displs[i] of `base` (the v
// forms). Count: int or MPI_Count, Displ: int or MPI_Aint (the large-count
// "_c" procedures, MPI-4.1 §19.2).
template <class Count, class Displ>
std::vector<RecvBlock> blocks(const NeighborCall& call, const void* base, int n, const Count* counts,
                              const Displ* displs, MPI_Datatype type)
{
  std::int64_t extent = extent_of(call, type);
  std::vector<RecvBlock> out;
  for (int i = 0; i < n; ++i)
    out.push_back({at(base, static_cast<std::int64_t>(displs[i]) * extent), counts[i], type});
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

// --check buffers: the blocks a nonblocking or persistent exchange sends
// from and receives into (MPI-4.1 §8.7, §6.12), each a buffer of its own;
// none for MPI_PROC_NULL neighbours, which the exchange does not touch.
std::vector<ProgramBuffer> program_buffers(const NeighborCall& call)
{
  std::vector<ProgramBuffer> out;
  if (!call.b.model().pending_buffers().on())
    return out;
  auto add = [&](const void* buf, std::int64_t count, MPI_Datatype type, bool send) {
    dt::DatatypePtr t = call.b.model().datatypes().find(type);
    for (const ProgramBuffer& o : out)  // MPI_Neighbor_allgather sends one buffer to every neighbour
      if (o.base == buf && o.send == send && o.blocks[0].count == count && o.blocks[0].type == t)
        return;
    out.push_back({buf, send, send ? "send" : "receive", {{0, count, t}}});
  };
  const topology::NeighborExchange& x = call.x;
  for (std::size_t j = 0; j < x.sends.size() && j < x.n.destinations.size(); ++j)
    if (x.n.destinations[j] != MPI_PROC_NULL)
      add(x.sends[j].buf, x.sends[j].count, x.sends[j].type, true);
  for (std::size_t i = 0; i < x.recvs.size() && i < x.n.sources.size(); ++i)
    if (x.n.sources[i] != MPI_PROC_NULL)
      add(x.recvs[i].buf, x.recvs[i].count, x.recvs[i].type, false);
  return out;
}

// Runs the prepared exchange in the call's form. Blocking calls use tag
// slot 0, the others a slot of their own (topology/TopologyTags.hpp).
int run(NeighborCall& call)
{
  const Communicator& comm = *call.comm;
  if (call.form == Form::Blocking)
    return raise(call, coll::run_blocking(call.b, comm, [&](coll::Schedule& s) {
                   return topology::build_neighbor_exchange(s, comm, call.x, 0);
                 }));
  // note_collective counted this call: its position is log.calls - 1.
  int slot = topology::neighbor_slot(comm.log.calls - 1, call.x.n.channel_count);
  bool persistent = call.form == Form::Persistent;
  std::vector<ProgramBuffer> buffers = program_buffers(call);
  RequestPtr r = coll::make_collective_request(
      call.b, comm,
      [x = std::move(call.x), c = &comm, slot](coll::Schedule& s) {
        return topology::build_neighbor_exchange(s, *c, x, slot);
      },
      persistent);
  if (!buffers.empty())
    r->writable_rare().program_buffers = std::move(buffers);
  if (!persistent)
    r->collective->start();
  *call.request = hand_out(call.b, r);  // marks the call site
  if (!persistent)
    call.b.model().pending_buffers().arm(*r);  // a persistent one's buffers from each MPI_Start
  return MPI_SUCCESS;
}

// --- one preparation per collective: checks and the blocks ------------------

int prepare_allgather(NeighborCall& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                      void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype)
{
  if (int err = begin(call, sendbuf, recvbuf))
    return err;
  if (int err = check_block(call, sendbuf, sendcount, sendtype))
    return err;
  if (int err = check_block(call, recvbuf, recvcount, recvtype))
    return err;
  call.x.sends.assign(static_cast<size_t>(call.outdegree()), SendBlock{sendbuf, sendcount, sendtype});
  call.x.recvs = uniform_blocks(call, recvbuf, call.indegree(), recvcount, recvtype);
  return MPI_SUCCESS;
}

template <class Count, class Displ>
int prepare_allgatherv(NeighborCall& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                       void* recvbuf, const Count recvcounts[], const Displ displs[], MPI_Datatype recvtype)
{
  if (int err = begin(call, sendbuf, recvbuf))
    return err;
  if (int err = check_block(call, sendbuf, sendcount, sendtype))
    return err;
  if (int err = check_array(call, recvcounts, call.indegree(), "recvcounts"))
    return err;
  if (int err = check_array(call, displs, call.indegree(), "displs"))
    return err;
  call.x.recvs = blocks(call, recvbuf, call.indegree(), recvcounts, displs, recvtype);
  if (int err = check_blocks(call, call.x.recvs))
    return err;
  call.x.sends.assign(static_cast<size_t>(call.outdegree()), SendBlock{sendbuf, sendcount, sendtype});
  return MPI_SUCCESS;
}

int prepare_alltoall(NeighborCall& call, const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype,
                     void* recvbuf, MPI_Count recvcount, MPI_Datatype recvtype)
{
  if (int err = begin(call, sendbuf, recvbuf))
    return err;
  if (int err = check_block(call, sendbuf, sendcount, sendtype))
    return err;
  if (int err = check_block(call, recvbuf, recvcount, recvtype))
    return err;
  call.x.sends = as_sends(uniform_blocks(call, sendbuf, call.outdegree(), sendcount, sendtype));
  call.x.recvs = uniform_blocks(call, recvbuf, call.indegree(), recvcount, recvtype);
  return MPI_SUCCESS;
}

template <class Count, class Displ>
int prepare_alltoallv(NeighborCall& call, const void* sendbuf, const Count sendcounts[], const Displ sdispls[],
                      MPI_Datatype sendtype, void* recvbuf, const Count recvcounts[], const Displ rdispls[],
                      MPI_Datatype recvtype)
{
  if (int err = begin(call, sendbuf, recvbuf))
    return err;
  if (int err = check_array(call, sendcounts, call.outdegree(), "sendcounts"))
    return err;
  if (int err = check_array(call, sdispls, call.outdegree(), "sdispls"))
    return err;
  if (int err = check_array(call, recvcounts, call.indegree(), "recvcounts"))
    return err;
  if (int err = check_array(call, rdispls, call.indegree(), "rdispls"))
    return err;
  call.x.sends = as_sends(blocks(call, sendbuf, call.outdegree(), sendcounts, sdispls, sendtype));
  call.x.recvs = blocks(call, recvbuf, call.indegree(), recvcounts, rdispls, recvtype);
  if (int err = check_blocks(call, call.x.sends))
    return err;
  return check_blocks(call, call.x.recvs);
}

template <class Count>
int prepare_alltoallw(NeighborCall& call, const void* sendbuf, const Count sendcounts[], const MPI_Aint sdispls[],
                      const MPI_Datatype sendtypes[], void* recvbuf, const Count recvcounts[], const MPI_Aint rdispls[],
                      const MPI_Datatype recvtypes[])
{
  if (int err = begin(call, sendbuf, recvbuf))
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
  for (int j = 0; j < out; ++j)
    call.x.sends.push_back({at(sendbuf, sdispls[j]), sendcounts[j], sendtypes[j]});
  for (int i = 0; i < in; ++i)
    call.x.recvs.push_back({at(recvbuf, rdispls[i]), recvcounts[i], recvtypes[i]});
  if (int err = check_blocks(call, call.x.sends))
    return err;
  return check_blocks(call, call.x.recvs);
}

}  // namespace

// The three forms of MPI_Neighbor_<name>; `params` are its parameters before
// the communicator, `args` their names. `suffix` is empty or _c: the
// large-count procedures (MPI-4.1 §19.2) share the preparation, whose count
// and displacement parameters are wide enough for both.
#define PROGSIM_UNPACK(...) __VA_ARGS__
#define PROGSIM_NEIGHBOR_FORMS(name, suffix, params, args)                                                           \
  extern "C" int PMPI_Neighbor_##name##suffix(PROGSIM_UNPACK params, MPI_Comm comm)                                  \
  {                                                                                                                  \
    Binding b("MPI_Neighbor_" #name #suffix, sim::CallKind::Stamped);                                                \
    NeighborCall call{b, comm, Form::Blocking};                                                                      \
    if (int err = prepare_##name(call, PROGSIM_UNPACK args))                                                         \
      return err;                                                                                                    \
    return run(call);                                                                                                \
  }                                                                                                                  \
  extern "C" int PMPI_Ineighbor_##name##suffix(PROGSIM_UNPACK params, MPI_Comm comm, MPI_Request* request)           \
  {                                                                                                                  \
    Binding b("MPI_Ineighbor_" #name #suffix, sim::CallKind::Stamped);                                               \
    NeighborCall call{b, comm, Form::Nonblocking, request};                                                          \
    if (int err = prepare_##name(call, PROGSIM_UNPACK args))                                                         \
      return err;                                                                                                    \
    return run(call);                                                                                                \
  }                                                                                                                  \
  extern "C" int PMPI_Neighbor_##name##_init##suffix(PROGSIM_UNPACK params, MPI_Comm comm, MPI_Info,                 \
                                                     MPI_Request* request)                                             \
  {                                                                                                                  \
    Binding b("MPI_Neighbor_" #name "_init" #suffix, sim::CallKind::Stamped);                                        \
    NeighborCall call{b, comm, Form::Persistent, request};                                                           \
    if (int err = prepare_##name(call, PROGSIM_UNPACK args))                                                         \
      return err;                                                                                                    \
    return run(call);                                                                                                \
  }                                                                                                                  \
  PROGSIM_MPI_ALIAS(MPI_Neighbor_##name##suffix)                                                                     \
  PROGSIM_MPI_ALIAS(MPI_Ineighbor_##name##suffix)                                                                    \
  PROGSIM_MPI_ALIAS(MPI_Neighbor_##name##_init##suffix)
#define PROGSIM_NEIGHBOR_COLLECTIVE(name, params, args) PROGSIM_NEIGHBOR_FORMS(name, , params, args)
#define PROGSIM_NEIGHBOR_COLLECTIVE_C(name, params, args) PROGSIM_NEIGHBOR_FORMS(name, _c, params, args)

PROGSIM_NEIGHBOR_COLLECTIVE(allgather,
                            (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype),
                            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE(allgatherv,
                            (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                             const int recvcounts[], const int displs[], MPI_Datatype recvtype),
                            (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE(alltoall,
                            (const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount,
                             MPI_Datatype recvtype),
                            (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE(alltoallv,
                            (const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype,
                             void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype),
                            (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE(alltoallw,
                            (const void* sendbuf, const int sendcounts[], const MPI_Aint sdispls[],
                             const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                             const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]),
                            (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes))

// The large-count procedures (MPI-4.1 §19.2).
PROGSIM_NEIGHBOR_COLLECTIVE_C(allgather,
                              (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype),
                              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE_C(allgatherv,
                              (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               const MPI_Count recvcounts[], const MPI_Aint displs[], MPI_Datatype recvtype),
                              (sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE_C(alltoall,
                              (const void* sendbuf, MPI_Count sendcount, MPI_Datatype sendtype, void* recvbuf,
                               MPI_Count recvcount, MPI_Datatype recvtype),
                              (sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE_C(alltoallv,
                              (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               MPI_Datatype sendtype, void* recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], MPI_Datatype recvtype),
                              (sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype))
PROGSIM_NEIGHBOR_COLLECTIVE_C(alltoallw,
                              (const void* sendbuf, const MPI_Count sendcounts[], const MPI_Aint sdispls[],
                               const MPI_Datatype sendtypes[], void* recvbuf, const MPI_Count recvcounts[],
                               const MPI_Aint rdispls[], const MPI_Datatype recvtypes[]),
                              (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes))
