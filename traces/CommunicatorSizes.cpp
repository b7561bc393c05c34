#include "traces/CommunicatorSizes.hpp"

#include "MpiModel.hpp"
#include "topology/Topology.hpp"

namespace progsim::traces {

int comm_size(int rank, MPI_Comm comm)
{
  const mpi::Communicator* c = mpi::MpiModel::instance().communicators().find(comm, rank);
  return c ? c->size() : 0;
}

std::pair<int, int> neighbor_degrees(int rank, MPI_Comm comm)
{
  const mpi::Communicator* c = mpi::MpiModel::instance().communicators().find(comm, rank);
  if (!c || !c->topology)
    return {0, 0};
  auto n = c->topology->neighbors(c->my_rank);
  return {static_cast<int>(n.sources.size()), static_cast<int>(n.destinations.size())};
}

}  // namespace progsim::traces
