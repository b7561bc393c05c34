// MPI-4.1 §11.3 the Sessions Model: MPI_Session_init / _finalize, the
// process set queries, MPI_Group_from_session_pset and the session error
// handlers. The semantics live in sessions/ (SessionTable, ProcessSets,
// FinalizeSynchronization); communicators come from session groups through
// MPI_Comm_create_from_group (CommunicatorsFromGroups.cpp).

#include "bindings/Communicators.hpp"
#include "progress/FinalizationProgress.hpp"
#include "sessions/FinalizeSynchronization.hpp"
#include "sessions/ProcessSets.hpp"

#include <algorithm>
#include <cstring>

using namespace progsim;
using namespace progsim::mpi;

namespace {

bool valid_errhandler(const Binding& b, MPI_Errhandler handler)
{
  if (handler == MPI_ERRORS_ARE_FATAL || handler == MPI_ERRORS_RETURN || handler == MPI_ERRORS_ABORT)
    return true;
  const UserErrhandler* user = b.model().process(b.world()).errhandler(handler);
  return user && !user->freed;
}

// The live session of a handle; an invalid or finalized one raises
// MPI_ERR_SESSION (on MPI_COMM_SELF: a bad handle has no handler of its own).
int resolve(const Binding& b, MPI_Session handle, sessions::Session*& session)
{
  if (!b.rank())
    return MPI_ERR_SESSION;
  session = b.model().process(b.world()).sessions.find(handle);
  if (!session)
    return b.error(MPI_COMM_SELF, MPI_ERR_SESSION,
                   handle == MPI_SESSION_NULL ? "MPI_SESSION_NULL" : "unknown session handle");
  if (session->finalized)
    return b.error(MPI_COMM_SELF, MPI_ERR_SESSION,
                   "the session was finalized by an earlier MPI_Session_finalize (" +
                       sim::format_time(session->finalized_at) + ")");
  return MPI_SUCCESS;
}

int session_error(const Binding& b, const sessions::Session& s, int error_class, const std::string& detail)
{
  return raise_object_error(s.handle, s.errhandler, error_class, b.call(), detail);
}

// "thread_level" of MPI_Session_init's info (MPI-4.1 §11.3.1); ranks are
// coroutines of one thread, so at most MPI_THREAD_FUNNELED is provided,
// which is also the default (MPI advises against MPI_THREAD_SINGLE).
int provided_thread_level(const Info& info)
{
  int requested = MPI_THREAD_FUNNELED;
  if (const std::string* value = info.get("thread_level"))
    for (int level : {MPI_THREAD_SINGLE, MPI_THREAD_FUNNELED, MPI_THREAD_SERIALIZED, MPI_THREAD_MULTIPLE})
      if (*value == thread_level_name(level))
        requested = level;
  return std::min(requested, static_cast<int>(MPI_THREAD_FUNNELED));
}

// The session and its process set named `name`.
int resolve_set(const Binding& b, MPI_Session session, const char* name, sessions::Session*& s,
                sessions::ProcessSet& set)
{
  if (int err = resolve(b, session, s))
    return err;
  if (!name)
    return session_error(b, *s, MPI_ERR_ARG, "null pset_name");
  if (!sessions::find_process_set(name, b.world(), set))
    return session_error(b, *s, MPI_ERR_ARG,
                         std::string("no process set named '") + name +
                             "' (progsim offers mpi://WORLD, mpi://SELF and progsim://host/<host name>; "
                             "MPI_Session_get_nth_pset lists them)");
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session)
{
  Binding b("MPI_Session_init");
  if (!b.rank())
    return MPI_ERR_OTHER;
  if (!valid_errhandler(b, errhandler))
    return b.error(MPI_COMM_SELF, MPI_ERR_ARG, "unknown error handler");
  if (!session)
    return raise_object_error(MPI_SESSION_NULL, errhandler, MPI_ERR_ARG, b.call(), "null session pointer");
  Info hints;
  if (int err = info_contents(b, info, hints))
    return err;
  sessions::Session& s =
      b.model().process(b.world()).sessions.create(errhandler, provided_thread_level(hints));
  ++b.rank()->open_sessions;
  b.rank()->used_sessions = true;
  *session = s.handle;
  return MPI_SUCCESS;
}

int PMPI_Session_finalize(MPI_Session* session)
{
  Binding b("MPI_Session_finalize");
  if (!session)
    return b.error(MPI_COMM_SELF, MPI_ERR_ARG, "null session pointer");
  sessions::Session* s = nullptr;
  if (int err = resolve(b, *session, s))
    return err;
  MPI_Session handle = s->handle;
  if (sessions::finalize_synchronizes())
    sessions::synchronize_finalize(b, handle);
  run_remaining_activities(b.world(), "MPI_Session_finalize", PendingCancellations::Ignore);
  // The synchronization may have let other ranks create sessions: look the
  // session up again rather than keep a pointer into the table.
  sessions::SessionTable& table = b.model().process(b.world()).sessions;
  table.finalize(*table.find(handle), b.rank()->clock().now());
  --b.rank()->open_sessions;
  *session = MPI_SESSION_NULL;
  return MPI_SUCCESS;
}

int PMPI_Session_get_num_psets(MPI_Session session, MPI_Info info, int* npset_names)
{
  Binding b("MPI_Session_get_num_psets", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  if (int err = resolve(b, session, s))
    return err;
  Info hints;
  if (int err = info_contents(b, info, hints))
    return err;
  if (!npset_names)
    return session_error(b, *s, MPI_ERR_ARG, "null npset_names pointer");
  *npset_names = static_cast<int>(sessions::process_sets(b.world()).size());
  return MPI_SUCCESS;
}

int PMPI_Session_get_nth_pset(MPI_Session session, MPI_Info info, int n, int* pset_len, char* pset_name)
{
  Binding b("MPI_Session_get_nth_pset", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  if (int err = resolve(b, session, s))
    return err;
  Info hints;
  if (int err = info_contents(b, info, hints))
    return err;
  std::vector<sessions::ProcessSet> sets = sessions::process_sets(b.world());
  if (n < 0 || n >= static_cast<int>(sets.size()))
    return session_error(b, *s, MPI_ERR_ARG,
                         "n = " + std::to_string(n) + " is not below the number of process sets (" +
                             std::to_string(sets.size()) + ")");
  if (!pset_len || *pset_len < 0)
    return session_error(b, *s, MPI_ERR_ARG, "null or negative pset_len");
  const std::string& name = sets[static_cast<size_t>(n)].name;
  // MPI-4.1 §11.3.2: pset_len 0 asks for the length (with the terminating
  // null); otherwise at most pset_len characters, null included, are written.
  if (*pset_len > 0) {
    if (!pset_name)
      return session_error(b, *s, MPI_ERR_ARG, "null pset_name with a positive pset_len");
    std::size_t copied = std::min(name.size(), static_cast<std::size_t>(*pset_len - 1));
    std::memcpy(pset_name, name.data(), copied);
    pset_name[copied] = '\0';
  }
  *pset_len = static_cast<int>(name.size()) + 1;
  return MPI_SUCCESS;
}

int PMPI_Session_get_pset_info(MPI_Session session, const char* pset_name, MPI_Info* info)
{
  Binding b("MPI_Session_get_pset_info", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  sessions::ProcessSet set;
  if (int err = resolve_set(b, session, pset_name, s, set))
    return err;
  if (!info)
    return session_error(b, *s, MPI_ERR_ARG, "null info pointer");
  Info contents;
  contents.set("mpi_size", std::to_string(set.members.size()));
  *info = new_info(b, std::move(contents));
  return MPI_SUCCESS;
}

int PMPI_Session_get_info(MPI_Session session, MPI_Info* info_used)
{
  Binding b("MPI_Session_get_info", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  if (int err = resolve(b, session, s))
    return err;
  if (!info_used)
    return session_error(b, *s, MPI_ERR_ARG, "null info_used pointer");
  Info contents;
  contents.set("thread_level", thread_level_name(s->thread_level));
  *info_used = new_info(b, std::move(contents));
  return MPI_SUCCESS;
}

int PMPI_Group_from_session_pset(MPI_Session session, const char* pset_name, MPI_Group* newgroup)
{
  Binding b("MPI_Group_from_session_pset", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  sessions::ProcessSet set;
  if (int err = resolve_set(b, session, pset_name, s, set))
    return err;
  if (!newgroup)
    return session_error(b, *s, MPI_ERR_ARG, "null newgroup pointer");
  auto group = std::make_shared<Group>(std::move(set.members));
  group->session = s->handle;
  *newgroup = b.model().process(b.world()).groups.insert(std::move(group));
  return MPI_SUCCESS;
}

int PMPI_Session_create_errhandler(MPI_Session_errhandler_function* fn, MPI_Errhandler* errhandler)
{
  // Callable before any session exists: MPI_Session_init takes the handler.
  Binding b("MPI_Session_create_errhandler", sim::CallKind::LocalQuery);
  if (!b.rank())
    return MPI_ERR_OTHER;
  if (!fn || !errhandler)
    return b.error(MPI_COMM_SELF, MPI_ERR_ARG, "null function or result pointer");
  Process& p = b.model().process(b.world());
  // Same C type as a communicator handler up to the (int) handle type.
  *errhandler = p.add_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(fn));
  return MPI_SUCCESS;
}

int PMPI_Session_set_errhandler(MPI_Session session, MPI_Errhandler errhandler)
{
  Binding b("MPI_Session_set_errhandler", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  if (int err = resolve(b, session, s))
    return err;
  if (!valid_errhandler(b, errhandler))
    return session_error(b, *s, MPI_ERR_ARG, "unknown error handler");
  s->errhandler = errhandler;
  return MPI_SUCCESS;
}

int PMPI_Session_get_errhandler(MPI_Session session, MPI_Errhandler* errhandler)
{
  Binding b("MPI_Session_get_errhandler", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  if (int err = resolve(b, session, s))
    return err;
  if (!errhandler)
    return session_error(b, *s, MPI_ERR_ARG, "null errhandler pointer");
  *errhandler = s->errhandler;
  return MPI_SUCCESS;
}

int PMPI_Session_call_errhandler(MPI_Session session, int errorcode)
{
  Binding b("MPI_Session_call_errhandler", sim::CallKind::LocalQuery);
  sessions::Session* s = nullptr;
  if (int err = resolve(b, session, s))
    return err;
  session_error(b, *s, errorcode, "raised by the program");
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Session_init)
PROGSIM_MPI_ALIAS(MPI_Session_finalize)
PROGSIM_MPI_ALIAS(MPI_Session_get_num_psets)
PROGSIM_MPI_ALIAS(MPI_Session_get_nth_pset)
PROGSIM_MPI_ALIAS(MPI_Session_get_pset_info)
PROGSIM_MPI_ALIAS(MPI_Session_get_info)
PROGSIM_MPI_ALIAS(MPI_Group_from_session_pset)
PROGSIM_MPI_ALIAS(MPI_Session_create_errhandler)
PROGSIM_MPI_ALIAS(MPI_Session_set_errhandler)
PROGSIM_MPI_ALIAS(MPI_Session_get_errhandler)
PROGSIM_MPI_ALIAS(MPI_Session_call_errhandler)
