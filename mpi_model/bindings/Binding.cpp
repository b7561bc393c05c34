#include "bindings/Binding.hpp"

#include "bindings/NotImplemented.hpp"
#include "progress/RankProgress.hpp"

#include <limits>

namespace progsim::mpi {

namespace {

// A call that progresses interacts, whatever it is.
sim::CallKind effective_kind(const sim::Rank* rank, sim::CallKind kind)
{
  bool progresses = rank && MpiModel::instance().parameters().progress_every_call;
  return progresses ? sim::CallKind::Interacting : kind;
}

}  // namespace

Binding::Binding(const char* call, sim::CallKind kind, const void* caller)
    : Binding(binding_rank(call, caller), call, kind, caller)
{
}

Binding::Binding(sim::Rank* rank, const char* call, sim::CallKind kind, const void* caller)
    : CallContext(call, rank), scope_(rank, call, effective_kind(rank, kind), caller)
{
  sim::Rank* r = scope_.rank();
  if (r && r->mpi_usable() && MpiModel::instance().parameters().progress_every_call)
    MpiModel::instance().rank_progress(r->id()).progress_point();
}

int Binding::resolve_comm(MPI_Comm handle, const Communicator*& comm) const
{
  comm = model().communicators().find(handle, world());
  if (!comm)
    return error(MPI_COMM_WORLD, MPI_ERR_COMM,
                 handle == MPI_COMM_NULL ? "MPI_COMM_NULL" : "unknown communicator handle");
  // The predefined communicators belong to the World Model: a process that
  // only has sessions must make its communicators from process sets
  // (MPI-4.1 §11.3, §11.4.1).
  sim::Rank* r = rank();
  if ((handle == MPI_COMM_WORLD || handle == MPI_COMM_SELF) && r && !(r->mpi_initialized && !r->mpi_finalized))
    return error(MPI_COMM_SELF, MPI_ERR_COMM,
                 std::string(handle == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : "MPI_COMM_SELF") +
                     " is valid only between MPI_Init and MPI_Finalize (the World Model, MPI-4.1 §11.2); with "
                     "sessions only, derive communicators from process sets (MPI_Group_from_session_pset)");
  // Objects of a finalized session must not be used (MPI-4.1 §11.3.1).
  if (comm->session != MPI_SESSION_NULL)
    if (const sessions::Session* s = model().process(world()).sessions.find(comm->session); s && s->finalized)
      return error(MPI_COMM_SELF, MPI_ERR_COMM,
                   "the communicator belongs to a session finalized by an earlier MPI_Session_finalize (" +
                       sim::format_time(s->finalized_at) + ")");
  return MPI_SUCCESS;
}

int Binding::check_buffer(const void* buf, std::int64_t count, MPI_Datatype datatype, MPI_Comm comm) const
{
  if (count < 0)
    return error(comm, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  dt::DatatypePtr type = model().datatypes().find_live(datatype);
  if (!type)
    return error(comm, MPI_ERR_TYPE, datatype == MPI_DATATYPE_NULL ? "MPI_DATATYPE_NULL" : "unknown datatype");
  if (!model().datatypes().is_committed(datatype))
    return error(comm, MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  if (type->size() > 0 && count > std::numeric_limits<std::int64_t>::max() / type->size())
    return error(comm, MPI_ERR_COUNT,
                 "count " + std::to_string(count) + " of a " + std::to_string(type->size()) +
                     "-byte datatype overflows 64 bits");
  if (null_buffer_accessed(buf, count, *type))
    return error(comm, MPI_ERR_BUFFER, null_buffer_reason);
  return MPI_SUCCESS;
}

bool null_buffer_accessed(const void* buf, std::int64_t count, const dt::Datatype& type)
{
  // MPI_BOTTOM is the null pointer (mpi.h): it is a valid buffer with a
  // datatype whose displacements are absolute addresses (MPI-4.1 §5.1.12),
  // which never lie in the first page, mapped by no process. Data there
  // means a null buffer with a datatype of relative displacements.
  constexpr std::int64_t kFirstMappablePage = 4096;
  return !buf && count > 0 && type.size() > 0 && type.true_lb() >= 0 && type.true_lb() < kFirstMappablePage;
}

int Binding::p2p_args(const void* buf, std::int64_t count, MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
                      bool receive, OperationArgs& args) const
{
  if (int err = check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = resolve_comm(comm, c))
    return err;
  // A message of no data with MPI_DATATYPE_NULL: the standard does not say;
  // MPICH accepts it (MPICH's own tests send it), Open MPI rejects it. With
  // no data there is no type to check: it is sent as 0 MPI_BYTE.
  if (count == 0 && datatype == MPI_DATATYPE_NULL)
    datatype = MPI_BYTE;
  if (int err = check_buffer(buf, count, datatype, comm))
    return err;
  bool valid_peer = peer == MPI_PROC_NULL || (peer >= 0 && peer < c->size()) || (receive && peer == MPI_ANY_SOURCE);
  if (!valid_peer)
    return error(comm, MPI_ERR_RANK,
                 "invalid " + std::string(receive ? "source" : "destination") + " rank " + std::to_string(peer) +
                     " (communicator size " + std::to_string(c->size()) + ")");
  bool valid_tag = (tag >= 0 && tag <= kTagUpperBound) || (receive && tag == MPI_ANY_TAG);
  if (!valid_tag)
    return error(comm, MPI_ERR_TAG, "invalid tag " + std::to_string(tag));
  args.buf = const_cast<void*>(buf);
  args.count = count;
  args.datatype = datatype;
  args.peer = peer;
  args.tag = tag;
  args.comm = c;
  args.call = call();
  return MPI_SUCCESS;
}

void fill_status(MPI_Status* status, const Request& request)
{
  if (status == MPI_STATUS_IGNORE)
    return;
  status->MPI_SOURCE = request.status_source;
  status->MPI_TAG = request.status_tag;
  // MPI_ERROR is left alone: single-completion calls never set it, and the
  // multiple-completion calls set it themselves (MPI-4.1 §3.2.5, §3.7.5).
  auto bytes = static_cast<unsigned long long>(request.status_bytes);
  status->count_lo = static_cast<int>(bytes & 0xffffffffULL);
  status->count_hi_and_cancelled = static_cast<int>(((bytes >> 32) << 1) | (request.cancelled ? 1 : 0));
}

void empty_status(MPI_Status* status)
{
  // MPI-4.1 §3.7.3: an empty status (null or inactive request).
  if (status == MPI_STATUS_IGNORE)
    return;
  status->MPI_SOURCE = MPI_ANY_SOURCE;
  status->MPI_TAG = MPI_ANY_TAG;
  status->MPI_ERROR = MPI_SUCCESS;
  status->count_lo = 0;
  status->count_hi_and_cancelled = 0;
}

MPI_Request hand_out(const Binding& b, const RequestPtr& request)
{
  MPI_Request handle = b.model().requests().insert(request);
  b.p2p().held_by_user(*request);
  return handle;
}

int start_request(const Binding& b, const RequestPtr& request)
{
  if (request->kind == RequestKind::Collective)
    return request->collective->start();
  if (request->kind == RequestKind::Partitioned)
    return request->rare().partitioned->start();
  if (request->kind == RequestKind::Send && request->mode == SendMode::Buffered)
    return b.p2p().start_buffered(request);
  return b.p2p().start(request);
}

}  // namespace progsim::mpi

namespace progsim::mpi {

int report_not_implemented(const char* call, const char* area)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  return b.error(MPI_COMM_WORLD, MPI_ERR_UNSUPPORTED_OPERATION,
                 std::string("not implemented by progsim yet: ") + area);
}

}  // namespace progsim::mpi
