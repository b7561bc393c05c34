// Neighborhood collectives, blocking and nonblocking: their lists of sizes
// have one entry per neighbor of the communicator's virtual topology.
#include "traces/recorder/RecorderInternals.hpp"

#include "traces/CommunicatorSizes.hpp"

namespace progsim::traces::recorder {

namespace {

template <class Count>
Event neighbor_allgatherv_event(const char* name, int rank, MPI_Comm comm, long long sendcount, MPI_Datatype sendtype,
                                const Count recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = byte_list(recvcounts, recvtype, neighbor_degrees(rank, comm).first);
  return event;
}

template <class Count>
Event neighbor_alltoallv_event(const char* name, int rank, MPI_Comm comm, const Count sendcounts[],
                               MPI_Datatype sendtype, const Count recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  auto [in, out] = neighbor_degrees(rank, comm);
  event["sbytes"] = byte_list(sendcounts, sendtype, out);
  event["rbytes"] = byte_list(recvcounts, recvtype, in);
  return event;
}

template <class Count>
Event neighbor_alltoallw_event(const char* name, int rank, MPI_Comm comm, const Count sendcounts[],
                               const MPI_Datatype sendtypes[], const Count recvcounts[],
                               const MPI_Datatype recvtypes[])
{
  auto [in, out] = neighbor_degrees(rank, comm);
  return w_event(name, rank, comm, byte_list(sendcounts, sendtypes, out), byte_list(recvcounts, recvtypes, in));
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

#define PROGSIM_FORMS "traces/recorder/NeighborCalls.inc"
#include "traces/recorder/CountForms.inc"
#undef PROGSIM_FORMS

// Nonblocking and persistent forms (RequestForms.inc), in both count forms.
#define PROGSIM_REQUEST_FORMS "traces/recorder/NeighborRequestCalls.inc"
#define PROGSIM_FORMS "traces/recorder/RequestForms.inc"
#include "traces/recorder/CountForms.inc"
#undef PROGSIM_FORMS
#undef PROGSIM_REQUEST_FORMS

}  // extern "C"
