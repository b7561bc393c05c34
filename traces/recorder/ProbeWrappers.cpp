// Probes: MPI_Probe and MPI_Iprobe, and the matched probes (MPI_Mprobe,
// MPI_Improbe) with the receives of the messages they match (MPI_Mrecv,
// MPI_Imrecv), which carry a per-rank message id.
#include "traces/recorder/RecorderInternals.hpp"

namespace progsim::traces::recorder {

namespace {

// A matched message's id: per rank, in matching order; -1 stands for
// MPI_MESSAGE_NO_PROC (a probe of MPI_PROC_NULL), -2 for an unknown handle.
int bind_message(int rank, MPI_Message message)
{
  if (message == MPI_MESSAGE_NO_PROC)
    return -1;
  RankRecord& r = g_recorder->rank(rank);
  int id = r.next_message++;
  r.messages[message] = id;
  return id;
}

// Forgets the message a receive takes (its handle is reused afterwards).
int take_message(int rank, MPI_Message message)
{
  if (message == MPI_MESSAGE_NO_PROC)
    return -1;
  auto& messages = g_recorder->rank(rank).messages;
  auto found = messages.find(message);
  if (found == messages.end())
    return -2;
  int id = found->second;
  messages.erase(found);
  return id;
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "probe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank_, comm)}}),
                 PMPI_Probe(source, tag, comm, status));
}

// Written after the call, with its outcome: MPI_Iprobe never blocks.
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Iprobe(source, tag, comm, flag, status);
  Event event = {{"call", "iprobe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank, comm)}, {"flag", 0}};
  until_returned(rank, event);
  int err = PMPI_Iprobe(source, tag, comm, flag, status);
  returned_from(rank);
  event["flag"] = flag && *flag ? 1 : 0;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

// Written after the call, which may block: the event carries the message's id.
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !message)
    return PMPI_Mprobe(source, tag, comm, message, status);
  Event event = {{"call", "mprobe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank, comm)}};
  int err = PMPI_Mprobe(source, tag, comm, message, status);
  event["msg"] = err == MPI_SUCCESS ? bind_message(rank, *message) : -2;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !message || !flag)
    return PMPI_Improbe(source, tag, comm, flag, message, status);
  Event event = {{"call", "improbe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank, comm)}, {"flag", 0}};
  until_returned(rank, event);
  int err = PMPI_Improbe(source, tag, comm, flag, message, status);
  returned_from(rank);
  event["flag"] = *flag ? 1 : 0;
  if (*flag)
    event["msg"] = err == MPI_SUCCESS ? bind_message(rank, *message) : -2;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

#define PROGSIM_FORMS "traces/recorder/ProbeCalls.inc"
#include "traces/recorder/CountForms.inc"
#undef PROGSIM_FORMS

}  // extern "C"
