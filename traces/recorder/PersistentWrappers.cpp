// Persistent point-to-point requests: their *_init calls and starts.
#include "traces/recorder/RecorderInternals.hpp"

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

#define PROGSIM_FORMS "traces/recorder/PersistentCalls.inc"
#include "traces/recorder/CountForms.inc"
#undef PROGSIM_FORMS

int MPI_Start(MPI_Request* request)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "start"}, {"req", request ? request_id(rank_, *request) : -1}}), PMPI_Start(request));
}

int MPI_Startall(int count, MPI_Request requests[])
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !requests || count < 0)
    return PMPI_Startall(count, requests);
  std::vector<int> ids;
  for (int i = 0; i < count; ++i)
    ids.push_back(request_id(rank, requests[i]));
  g_recorder->write(rank, Event({{"call", "startall"}, {"reqs", ids}}));
  int err = PMPI_Startall(count, requests);
  g_recorder->returned(rank);
  return err;
}

}  // extern "C"
