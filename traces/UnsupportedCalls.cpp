// MPI calls a trace cannot replay yet: when recording, each leaves an
// "unsupported" event naming it (docs/traces.md), so that replaying the
// trace stops there with a clear error instead of silently running a
// different program. Then the call runs as usual (PMPI_).
#include "traces/Recorder.hpp"

#include "sim/CallScope.hpp"

#include <mpi.h>

#define PROGSIM_UNSUPPORTED(name, params, args)          \
  extern "C" int MPI_##name params                      \
  {                                                     \
    progsim::sim::InterposedCall interposed(__builtin_return_address(0)); \
    progsim::traces::record_unsupported("MPI_" #name); \
    return PMPI_##name args;                            \
  }

PROGSIM_UNSUPPORTED(Waitany, (int count, MPI_Request array_of_requests[], int *index, MPI_Status *status), (count, array_of_requests, index, status))
PROGSIM_UNSUPPORTED(Waitsome, (int incount, MPI_Request array_of_requests[], int *outcount, int array_of_indices[], MPI_Status *array_of_statuses), (incount, array_of_requests, outcount, array_of_indices, array_of_statuses))
PROGSIM_UNSUPPORTED(Testall, (int count, MPI_Request array_of_requests[], int *flag, MPI_Status *array_of_statuses), (count, array_of_requests, flag, array_of_statuses))
PROGSIM_UNSUPPORTED(Testany, (int count, MPI_Request array_of_requests[], int *index, int *flag, MPI_Status *status), (count, array_of_requests, index, flag, status))
PROGSIM_UNSUPPORTED(Probe, (int source, int tag, MPI_Comm comm, MPI_Status *status), (source, tag, comm, status))
PROGSIM_UNSUPPORTED(Iprobe, (int source, int tag, MPI_Comm comm, int *flag, MPI_Status *status), (source, tag, comm, flag, status))
PROGSIM_UNSUPPORTED(Bsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
PROGSIM_UNSUPPORTED(Rsend, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm), (buf, count, datatype, dest, tag, comm))
PROGSIM_UNSUPPORTED(Scan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, count, datatype, op, comm))
PROGSIM_UNSUPPORTED(Exscan, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm), (sendbuf, recvbuf, count, datatype, op, comm))
PROGSIM_UNSUPPORTED(Scatterv, (const void *sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm), (sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm))
PROGSIM_UNSUPPORTED(Ibarrier, (MPI_Comm comm, MPI_Request *request), (comm, request))
PROGSIM_UNSUPPORTED(Iallreduce, (const void *sendbuf, void *recvbuf, int count, MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request *request), (sendbuf, recvbuf, count, datatype, op, comm, request))
PROGSIM_UNSUPPORTED(Ibcast, (void *buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm, MPI_Request *request), (buffer, count, datatype, root, comm, request))
// MPI_Cancel: whether a send was cancelled depends on the timing of the
// replayed run, and a trace has no event for it.
PROGSIM_UNSUPPORTED(Cancel, (MPI_Request *request), (request))
PROGSIM_UNSUPPORTED(Start, (MPI_Request *request), (request))
PROGSIM_UNSUPPORTED(Startall, (int count, MPI_Request array_of_requests[]), (count, array_of_requests))
PROGSIM_UNSUPPORTED(Send_init, (const void *buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Request *request), (buf, count, datatype, dest, tag, comm, request))
PROGSIM_UNSUPPORTED(Recv_init, (void *buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Request *request), (buf, count, datatype, source, tag, comm, request))
// The Sessions Model: its communicators come from process sets, which the
// trace format has no event for; the first session call stops a replay.
PROGSIM_UNSUPPORTED(Session_init, (MPI_Info info, MPI_Errhandler errhandler, MPI_Session *session), (info, errhandler, session))
PROGSIM_UNSUPPORTED(Alltoallw, (const void *sendbuf, const int sendcounts[], const int sdispls[], const MPI_Datatype sendtypes[], void *recvbuf, const int recvcounts[], const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm), (sendbuf, sendcounts, sdispls, sendtypes, recvbuf, recvcounts, rdispls, recvtypes, comm))
// Partitioned communication (MPI-4.1 chapter 4): its requests and partitions are not in the trace format.
PROGSIM_UNSUPPORTED(Psend_init, (const void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request), (buf, partitions, count, datatype, dest, tag, comm, info, request))
PROGSIM_UNSUPPORTED(Precv_init, (void *buf, int partitions, MPI_Count count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm, MPI_Info info, MPI_Request *request), (buf, partitions, count, datatype, source, tag, comm, info, request))
PROGSIM_UNSUPPORTED(Pready, (int partition, MPI_Request request), (partition, request))
PROGSIM_UNSUPPORTED(Pready_range, (int partition_low, int partition_high, MPI_Request request), (partition_low, partition_high, request))
PROGSIM_UNSUPPORTED(Pready_list, (int length, const int array_of_partitions[], MPI_Request request), (length, array_of_partitions, request))
PROGSIM_UNSUPPORTED(Parrived, (MPI_Request request, int partition, int *flag), (request, partition, flag))
