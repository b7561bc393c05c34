// MPI-4.1 chapter 7 (groups, contexts, communicators). For now the two
// predefined communicators; the full chapter arrives with the collectives.

#include "bindings/Binding.hpp"

using namespace progsim;
using namespace progsim::mpi;

extern "C" {

int PMPI_Comm_rank(MPI_Comm comm, int* rank)
{
  Binding b("MPI_Comm_rank");
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  *rank = c->local_rank(b.world());
  return MPI_SUCCESS;
}

int PMPI_Comm_size(MPI_Comm comm, int* size)
{
  Binding b("MPI_Comm_size");
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  *size = c->size();
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Comm_rank)
PROGSIM_MPI_ALIAS(MPI_Comm_size)
