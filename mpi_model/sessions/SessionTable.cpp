#include "sessions/SessionTable.hpp"

namespace progsim::mpi::sessions {

Session& SessionTable::create(MPI_Errhandler errhandler, int thread_level)
{
  Session s;
  s.handle = MPI_SESSION_NULL | static_cast<int>(sessions_.size() + 1);
  s.errhandler = errhandler;
  s.thread_level = thread_level;
  sessions_.push_back(s);
  ++open_;
  return sessions_.back();
}

Session* SessionTable::find(MPI_Session handle)
{
  if ((handle & ~0x00ffffff) != MPI_SESSION_NULL)
    return nullptr;
  int index = (handle & 0x00ffffff) - 1;
  if (index < 0 || index >= static_cast<int>(sessions_.size()))
    return nullptr;
  return &sessions_[static_cast<size_t>(index)];
}

void SessionTable::finalize(Session& session, double now)
{
  if (session.finalized)
    return;
  session.finalized = true;
  session.finalized_at = now;
  --open_;
}

}  // namespace progsim::mpi::sessions
