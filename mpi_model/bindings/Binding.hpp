// Shared helpers of the C bindings: every MPI procedure is implemented as
// PMPI_Name (the profiling interface) with MPI_Name a weak alias to it, and
// opens a CallScope naming itself before doing anything else.
#pragma once

#include "MpiModel.hpp"
#include "core/ErrorHandling.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Simulation.hpp"

#include <mpi.h>

// Defines MPI_name as a weak alias of PMPI_name (MPI-4.1 §15.2, profiling).
#define PROGSIM_MPI_ALIAS(name) \
  extern "C" __typeof__(P##name) name __attribute__((weak, alias("P" #name)));

namespace progsim::mpi {

// The rank calling MPI now; nullptr when MPI is called outside any rank.
inline sim::Rank* binding_rank()
{
  return sim::calling_rank();
}

// Checks that MPI is initialized and not finalized (MPI-4.1 §11.2.1); raises
// MPI_ERR_OTHER otherwise and returns its code, or MPI_SUCCESS.
int require_initialized(sim::Rank* rank, const char* call);

}  // namespace progsim::mpi
