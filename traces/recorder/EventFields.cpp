// The fields the wrappers' events have in common: byte counts, communicator
// ids, reductions, what a receive's status says.
#include "traces/recorder/RecorderInternals.hpp"

#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"
#include "datatype/PrimitiveType.hpp"

namespace progsim::traces::recorder {

// A negative count, or one whose bytes no long long holds (a large-count
// form's), is recorded as 0: the call fails (MPI_ERR_COUNT) and its
// `failed` event gives it its cost only in a replay.
long long bytes_of(MPI_Datatype type, long long count)
{
  auto t = mpi::MpiModel::instance().datatypes().find_live(type);
  long long bytes = 0;
  if (!t || count < 0 || __builtin_mul_overflow(static_cast<long long>(t->size()), count, &bytes))
    return 0;
  return bytes;
}

Completion received(int request, const MPI_Status& status)
{
  long long bytes = static_cast<long long>(static_cast<unsigned>(status.count_lo)) |
                    (static_cast<long long>(static_cast<unsigned>(status.count_hi_and_cancelled) >> 1) << 32);
  return {request, status.MPI_SOURCE, status.MPI_TAG, bytes};
}

CompletionStatus::CompletionStatus(MPI_Status* program_status, bool wanted)
    : used_(program_status == MPI_STATUS_IGNORE && wanted ? &own_ : program_status)
{
}

void CompletionStatus::report(int rank, int request, int err, bool completed) const
{
  if (err == MPI_SUCCESS && completed && used_ != MPI_STATUS_IGNORE)
    g_recorder->returned(rank, {received(request, *used_)});
  else
    g_recorder->returned(rank, {}, err != MPI_SUCCESS);
}

Event p2p(const char* call, int rank, int peer, int tag, MPI_Comm comm, long long bytes)
{
  return {{"call", call}, {"peer", peer}, {"tag", tag}, {"comm", comm_id(rank, comm)}, {"bytes", bytes}};
}

Event sendrecv_event(const char* call, int rank, int dest, int sendtag, MPI_Comm comm, long long bytes, int source,
                     int recvtag, long long rbytes)
{
  Event event = p2p(call, rank, dest, sendtag, comm, bytes);
  event["source"] = source;
  event["rtag"] = recvtag;
  if (rbytes >= 0)
    event["rbytes"] = rbytes;
  return event;
}

bool add_reduction(Event& event, int rank, long long count, MPI_Datatype type, MPI_Op op)
{
  mpi::MpiModel& model = mpi::MpiModel::instance();
  auto t = model.datatypes().find_live(type);
  const char* type_name = predefined_datatype_name(type);
  const char* op_name = predefined_op_name(op);
  std::optional<dt::PrimitiveId> p = t ? t->single_primitive() : std::nullopt;
  const char* element_name = p ? predefined_datatype_name(MPI_DATATYPE_NULL + dt::primitive_index(*p)) : nullptr;
  long long element_size = p ? static_cast<long long>(dt::primitive_info(*p).size) : 0;
  const mpi::UserOpEntry* user = op_name ? nullptr : model.process(rank).user_op(op);
  event["count"] = count;
  if (type_name && op_name) {
    event["dt"] = type_name;
    event["op"] = op_name;
    return true;
  }
  // Items of a derived datatype with a predefined operation: the model
  // reduces `elements` predefined elements per item (coll/ReduceWork), and
  // splits the work between ranks by items.
  if (t && op_name && element_name && element_size > 0) {
    event["dt"] = element_name;
    event["op"] = op_name;
    event["elements"] = static_cast<long long>(t->size()) / element_size;
    return true;
  }
  // A user operation combines items of the program's datatype, in the
  // order its commutativity allows (MPI-4.1 §6.9.5): items of as many bytes.
  if (t && user && !user->freed) {
    event["dt"] = "MPI_BYTE";
    event["op"] = "user";
    event["commutative"] = user->op.commutative ? 1 : 0;
    event["elements"] = static_cast<long long>(t->size());
    return true;
  }
  // An invalid datatype or operation: the call fails, and its `failed`
  // event gives the replay its cost only.
  event["count"] = bytes_of(type, count);
  event["dt"] = "MPI_BYTE";
  event["op"] = "MPI_BOR";
  return false;
}

Event in_place(Event event, const void* buffer)
{
  if (buffer == MPI_IN_PLACE)
    event["in_place"] = 1;
  return event;
}

Event comm_event(const char* name, int rank, MPI_Comm comm)
{
  return {{"call", name}, {"comm", comm_id(rank, comm)}};
}

Event exchange_event(const char* name, int rank, MPI_Comm comm, long long sendcount, MPI_Datatype sendtype, long long recvcount,
                     MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

Event w_event(const char* name, int rank, MPI_Comm comm, std::vector<long long> sbytes, std::vector<long long> rbytes)
{
  Event event = comm_event(name, rank, comm);
  event["sbytes"] = std::move(sbytes);
  event["rbytes"] = std::move(rbytes);
  return event;
}

}  // namespace progsim::traces::recorder
