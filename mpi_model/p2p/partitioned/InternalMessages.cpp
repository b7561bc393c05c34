#include "p2p/partitioned/InternalMessages.hpp"

#include "MpiModel.hpp"
#include "progress/RankProgress.hpp"
#include "sim/ActingTime.hpp"

#include <climits>

namespace progsim::mpi::partitioned {

int handshake_context(int comm_context)
{
  return -1 - comm_context;
}

int new_link_context()
{
  // One simulation per process: a run-wide counter keeps the ids
  // deterministic. Far below the handshake contexts (-1 - c).
  static int issued = 0;
  return INT_MIN + issued++;
}

RequestPtr internal_message(const Request& user, RequestKind kind, int context, int tag, void* buf, std::int64_t count,
                            MPI_Datatype datatype)
{
  auto r = std::make_shared<Request>();
  r->kind = kind;
  r->owner = user.owner;
  r->comm_handle = user.comm_handle;
  r->comm_name = user.comm_name;
  r->comm_context = user.comm_context;
  r->self_local = user.self_local;
  r->context_id = context;
  r->peer = user.peer;
  r->peer_world = user.peer_world;
  r->tag = tag;
  r->buf = buf;
  r->count = count;
  r->datatype = datatype;
  r->type = MpiModel::instance().datatypes().find(datatype);
  r->bytes = r->type ? static_cast<std::size_t>(r->type->size() * count) : 0;
  r->call = user.call;
  r->state = RequestState::Inactive;
  return r;
}

void complete_user_request(Request& user)
{
  user.state = RequestState::Complete;
  user.complete_time = sim::acting_time();
  MpiModel::instance().rank_progress(user.owner).wake();
}

void begin_epoch(Request& user)
{
  user.state = RequestState::Posted;
  user.status_error = MPI_SUCCESS;
  user.status_bytes = 0;
  user.post_time = sim::acting_time();
  user.match_time = user.complete_time = -1;
}

std::vector<RequestPtr> incomplete(const RequestPtr& handshake, const std::vector<RequestPtr>& messages)
{
  std::vector<RequestPtr> pending;
  if (handshake && !handshake->complete())
    pending.push_back(handshake);
  for (const RequestPtr& m : messages)
    if (!m->complete())
      pending.push_back(m);
  return pending;
}

}  // namespace progsim::mpi::partitioned
