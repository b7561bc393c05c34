// Argument checks shared by the partitioned-communication bindings
// (Partitioned.cpp) and MPI_Parrived (Requests.cpp, with the other test
// procedures).
#pragma once

#include "bindings/Binding.hpp"
#include "p2p/partitioned/PartitionedRecv.hpp"
#include "p2p/partitioned/PartitionedSend.hpp"

namespace progsim::mpi {

// The operation behind `handle` if it names a partitioned send / receive
// request; otherwise raises MPI_ERR_REQUEST and returns its code.
int partitioned_send(const Binding& b, MPI_Request handle, RequestPtr& request, PartitionedSend*& send);
int partitioned_recv(const Binding& b, MPI_Request handle, RequestPtr& request, PartitionedRecv*& recv);
// Raises MPI_ERR_ARG unless 0 <= partition < partitions.
int check_partition(const Binding& b, const Request& request, int partition, int partitions);

}  // namespace progsim::mpi
