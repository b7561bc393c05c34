// MPI_Alloc_mem and MPI_Free_mem (MPI-4.1 §9.2). The simulated machine has
// no special memory, so blocks come from the C heap; the process records
// them so that MPI_Free_mem of anything else is an error (MPI_ERR_BASE), as
// it is in real MPIs that register the memory with the NIC.
#include "bindings/Binding.hpp"

#include "core/Process.hpp"

#include <cstdlib>

using namespace progsim;
using namespace progsim::mpi;

extern "C" {

int PMPI_Alloc_mem(MPI_Aint size, MPI_Info info, void* baseptr)
{
  Binding b("MPI_Alloc_mem");
  if (int err = b.check_initialized())
    return err;
  (void)info;  // no hint changes where simulated memory lives
  if (size < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_SIZE, "negative size " + std::to_string(size));
  if (!baseptr)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null baseptr");
  // A zero-byte request still returns a distinct pointer that MPI_Free_mem
  // accepts.
  void* block = std::malloc(size > 0 ? static_cast<std::size_t>(size) : 1);
  if (!block)
    return b.error(MPI_COMM_WORLD, MPI_ERR_NO_MEM, "cannot allocate " + std::to_string(size) + " bytes");
  b.model().process(b.world()).allocated_memory.emplace(block, static_cast<std::size_t>(size));
  *static_cast<void**>(baseptr) = block;
  return MPI_SUCCESS;
}

int PMPI_Free_mem(void* base)
{
  Binding b("MPI_Free_mem");
  if (int err = b.check_initialized())
    return err;
  auto& blocks = b.model().process(b.world()).allocated_memory;
  auto it = blocks.find(base);
  if (it == blocks.end())
    return b.error(MPI_COMM_WORLD, MPI_ERR_BASE, "the address was not returned by MPI_Alloc_mem of this process");
  blocks.erase(it);
  std::free(base);
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Alloc_mem)
PROGSIM_MPI_ALIAS(MPI_Free_mem)
