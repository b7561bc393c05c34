// The sessions of one MPI process (MPI-4.1 §11.3): each MPI_Session_init
// makes one, with its own error handler and thread level; MPI_Session_finalize
// ends it. Handles are per process: 0x70000000 | index (MPI_SESSION_NULL is
// index 0), indices from 1 in creation order and never reused, so that a
// handle kept after MPI_Session_finalize is recognised as a finalized session.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace progsim::mpi::sessions {

struct Session {
  MPI_Session handle = MPI_SESSION_NULL;
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  int thread_level = MPI_THREAD_SINGLE;  // provided (at most MPI_THREAD_FUNNELED)
  bool finalized = false;
  double finalized_at = 0;  // simulated time of its MPI_Session_finalize
};

class SessionTable {
public:
  Session& create(MPI_Errhandler errhandler, int thread_level);
  // The session of a handle, finalized or not; nullptr for MPI_SESSION_NULL
  // and handles this process never had.
  Session* find(MPI_Session handle);
  // Sessions initialized and not finalized yet.
  int open() const { return open_; }
  // Sessions initialized so far (the report's per-rank "sessions").
  int created() const { return static_cast<int>(sessions_.size()); }
  void finalize(Session& session, double now);
  // The session whose MPI_Session_finalize is waiting for its partners
  // (FinalizeSynchronization), MPI_SESSION_NULL otherwise.
  MPI_Session synchronizing = MPI_SESSION_NULL;

private:
  std::vector<Session> sessions_;  // index - 1
  int open_ = 0;
};

}  // namespace progsim::mpi::sessions
