#include "sessions/FinalizeSynchronization.hpp"

#include "MpiModel.hpp"
#include "core/CallContext.hpp"
#include "progress/RankProgress.hpp"

namespace progsim::mpi::sessions {

namespace {

// The communicators `rank` derived from `session` and has not freed.
std::vector<Communicator*> derived_communicators(int rank, MPI_Session session)
{
  CommunicatorTable& table = MpiModel::instance().communicators();
  std::vector<Communicator*> comms;
  for (const Communicator* c : table.live_communicators(rank))
    if (c->session == session && session != MPI_SESSION_NULL)
      comms.push_back(table.get(c->handle, rank));
  return comms;
}

std::vector<int> members(const Communicator& c)
{
  std::vector<int> all = c.group->world_ranks();
  if (c.remote_group)
    all.insert(all.end(), c.remote_group->world_ranks().begin(), c.remote_group->world_ranks().end());
  return all;
}

// Whether `member` has entered the finalization of its session on its own
// handle of `c`, or freed that handle (MPI_Comm_free is collective: it no
// longer synchronizes on it). A member without a handle may also still be
// inside the constructor (it returned here first): it has held the context
// id, i.e. freed it, only when its next id is above it (ids are never
// reused by a process, core/Communicator.hpp).
bool arrived(int member, const Communicator& c)
{
  CommunicatorTable& table = MpiModel::instance().communicators();
  if (const Communicator* theirs = table.find_by_context(member, c.context_id))
    return theirs->session_finalizing;
  return table.next_context(member) > c.context_id;
}

std::string describe(const Communicator& c)
{
  return "the communicator " + (c.name.empty() ? std::string() : "'" + c.name + "' ") + "(context " +
         std::to_string(c.context_id) + ", " + std::to_string(members(c).size()) + " processes)";
}

std::vector<MissingPartner> missing(int rank, MPI_Session session)
{
  std::vector<MissingPartner> out;
  for (Communicator* c : derived_communicators(rank, session))
    for (int m : members(*c))
      if (m != rank && !arrived(m, *c))
        out.push_back({m, describe(*c)});
  return out;
}

}  // namespace

bool finalize_synchronizes()
{
  return MpiModel::instance().parameters().session_finalize_sync == "collective";
}

void synchronize_finalize(const CallContext& call, MPI_Session session)
{
  int me = call.world();
  MpiModel& model = MpiModel::instance();
  std::vector<Communicator*> comms = derived_communicators(me, session);
  for (Communicator* c : comms) {
    c->session_finalizing = true;
    for (int m : members(*c))
      if (m != me)
        model.rank_progress(m).wake();
  }
  SessionTable& table = model.process(me).sessions;
  table.synchronizing = session;
  call.progress().wait_until([me, session] { return missing(me, session).empty(); },
                          [me, session] {
                            std::vector<MissingPartner> m = missing(me, session);
                            std::string text = "MPI_Session_finalize (synchronizing, --cfg session-finalize-sync="
                                               "collective: waits for ";
                            for (std::size_t i = 0; i < m.size(); ++i)
                              text += (i ? ", " : "") + std::string("rank ") + std::to_string(m[i].world_rank) +
                                      " on " + m[i].communicator;
                            return text + ")";
                          });
  table.synchronizing = MPI_SESSION_NULL;
}

std::vector<MissingPartner> missing_partners(int rank)
{
  MPI_Session session = MpiModel::instance().process(rank).sessions.synchronizing;
  if (session == MPI_SESSION_NULL)
    return {};
  return missing(rank, session);
}

}  // namespace progsim::mpi::sessions
