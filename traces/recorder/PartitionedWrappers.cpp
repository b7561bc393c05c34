// Partitioned communication (MPI-4.1 chapter 4): MPI_Psend_init and
// MPI_Precv_init carry the request's id, which `start`/`startall` events
// start and the completion calls' events complete, as for persistent
// requests. Each MPI_Pready* is an event at the place in the rank's
// sequence where the program called it: when partitions become ready is
// what a partitioned trace is for. MPI_Parrived, a test, is written after it
// returns with its flag, as MPI_Iprobe.
#include "traces/recorder/RecorderInternals.hpp"

namespace progsim::traces::recorder {

namespace {

// The *_init calls: bytes per partition (a replay sends MPI_BYTE).
template <class Call>
int record_partitioned_init(const char* name, int partitions, MPI_Count count, MPI_Datatype type, int peer, int tag,
                            MPI_Comm comm, MPI_Request* request, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  Event event = p2p(name, rank, peer, tag, comm, bytes_of(type, count));
  event["partitions"] = partitions;
  return record_request(rank, event, request, call);
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

// The info argument is not recorded: the model does not read it.
int MPI_Psend_init(const void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_partitioned_init("psend_init", partitions, count, datatype, dest, tag, comm, request, [&] {
    return PMPI_Psend_init(buf, partitions, count, datatype, dest, tag, comm, info, request);
  });
}

int MPI_Precv_init(void* buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag,
                   MPI_Comm comm, MPI_Info info, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_partitioned_init("precv_init", partitions, count, datatype, source, tag, comm, request, [&] {
    return PMPI_Precv_init(buf, partitions, count, datatype, source, tag, comm, info, request);
  });
}

int MPI_Pready(int partition, MPI_Request request)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "pready"}, {"req", request_id(rank_, request)}, {"partition", partition}}),
                 PMPI_Pready(partition, request));
}

int MPI_Pready_range(int partition_low, int partition_high, MPI_Request request)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "pready_range"},
                        {"req", request_id(rank_, request)},
                        {"low", partition_low},
                        {"high", partition_high}}),
                 PMPI_Pready_range(partition_low, partition_high, request));
}

// A negative length or a null array is recorded as an empty list: the call
// fails, and its `failed` event gives it its cost only in a replay.
int MPI_Pready_list(int length, const int array_of_partitions[], MPI_Request request)
{
  PROGSIM_WRAPPER();
  std::vector<int> list;
  if (array_of_partitions && length > 0)
    list.assign(array_of_partitions, array_of_partitions + length);
  PROGSIM_RECORD(Event({{"call", "pready_list"}, {"req", request_id(rank_, request)}, {"list", list}}),
                 PMPI_Pready_list(length, array_of_partitions, request));
}

// Written after the call, with its outcome: MPI_Parrived never blocks.
int MPI_Parrived(MPI_Request request, int partition, int* flag)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Parrived(request, partition, flag);
  Event event = {{"call", "parrived"}, {"req", request_id(rank, request)}, {"partition", partition}, {"flag", 0}};
  until_returned(rank, event);
  int err = PMPI_Parrived(request, partition, flag);
  returned_from(rank);
  event["flag"] = err == MPI_SUCCESS && flag && *flag ? 1 : 0;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

}  // extern "C"
