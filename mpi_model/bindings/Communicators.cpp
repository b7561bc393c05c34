// MPI-4.1 chapter 7 (groups, contexts, communicators). For now the two
// predefined communicators; the full chapter arrives with the collectives.

#include "bindings/Binding.hpp"

using namespace progsim;

namespace {

int check_comm(sim::Rank* rank, MPI_Comm comm, const char* call)
{
  if (int err = mpi::require_initialized(rank, call))
    return err;
  if (comm != MPI_COMM_WORLD && comm != MPI_COMM_SELF)
    return mpi::raise_error(MPI_COMM_WORLD, MPI_ERR_COMM, call,
                            comm == MPI_COMM_NULL ? "MPI_COMM_NULL" : "unknown communicator handle");
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Comm_rank(MPI_Comm comm, int* rank)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Comm_rank");
  if (int err = check_comm(scope.rank(), comm, "MPI_Comm_rank"))
    return err;
  *rank = comm == MPI_COMM_WORLD ? scope.rank()->id() : 0;
  return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int* size)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Comm_size");
  if (int err = check_comm(scope.rank(), comm, "MPI_Comm_size"))
    return err;
  *size = comm == MPI_COMM_WORLD ? sim::Simulation::current()->size() : 1;
  return MPI_SUCCESS;
}

// Interim barrier (no network traffic) until the collective engine lands.
int PMPI_Barrier(MPI_Comm comm)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Barrier");
  if (int err = check_comm(scope.rank(), comm, "MPI_Barrier"))
    return err;
  if (comm == MPI_COMM_SELF)
    return MPI_SUCCESS;
  sim::Rank& rank = *scope.rank();
  rank.clock().flush();
  rank.set_state(sim::RankState::Blocked);
  rank.blocked_on = "MPI_Barrier(MPI_COMM_WORLD)";
  mpi::MpiModel::instance().world_barrier();
  rank.set_state(sim::RankState::InMpi);
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Comm_rank)
PROGSIM_MPI_ALIAS(MPI_Comm_size)
PROGSIM_MPI_ALIAS(MPI_Barrier)
