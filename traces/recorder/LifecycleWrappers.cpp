// The wrappers of MPI_Init, MPI_Init_thread and MPI_Finalize, and of
// MPI_Session_init and MPI_Session_finalize (the Sessions Model, MPI-4.1
// §11.3), whose sessions are per-rank ids in creation order.
#include "traces/recorder/RecorderInternals.hpp"

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Init(int* argc, char*** argv)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "init"}}), PMPI_Init(argc, argv));
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "init"}}), PMPI_Init_thread(argc, argv, required, provided));
}

int MPI_Finalize(void)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "finalize"}}), PMPI_Finalize());
}

// The info and the error handler are not recorded: a replay's session
// reports its errors itself, and the model reads no info key of it.
int MPI_Session_init(MPI_Info info, MPI_Errhandler errhandler, MPI_Session* session)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !session)
    return PMPI_Session_init(info, errhandler, session);
  RankRecord& record = g_recorder->rank(rank);
  int id = record.next_session++;
  g_recorder->write(rank, Event({{"call", "session_init"}, {"session", id}}));
  int err = PMPI_Session_init(info, errhandler, session);
  if (err == MPI_SUCCESS)
    record.sessions[*session] = id;
  g_recorder->returned(rank);
  return err;
}

int MPI_Session_finalize(MPI_Session* session)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !session)
    return PMPI_Session_finalize(session);
  MPI_Session before = *session;
  g_recorder->write(rank, Event({{"call", "session_finalize"}, {"session", session_id(rank, before)}}));
  int err = PMPI_Session_finalize(session);
  if (err == MPI_SUCCESS)
    g_recorder->rank(rank).sessions.erase(before);
  g_recorder->returned(rank);
  return err;
}

}  // extern "C"
