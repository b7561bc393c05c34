// Helpers shared by the one-sided communication bindings (RmaWindows.cpp,
// RmaOperations.cpp, RmaSync.cpp): window lookup and errors raised on the
// window (its error handler decides, MPI-4.1 §9.3.2).
#pragma once

#include "bindings/Binding.hpp"
#include "rma/RmaEngine.hpp"

namespace progsim::mpi {

inline rma::RmaEngine& rma_engine(const Binding& b)
{
  return b.model().rma();
}

// Checks initialization and finds the window; MPI_ERR_WIN otherwise.
int resolve_window(const Binding& b, MPI_Win handle, rma::Window*& window);
int window_error(const Binding& b, const rma::Window& window, int error_class, const std::string& detail);
// A synchronization error of the program (rma/SyncErrors.hpp): recorded as a
// StandardError, raised as MPI_ERR_RMA_SYNC on the window.
int sync_error(const Binding& b, const rma::Window& window, const std::string& detail);
// A target rank argument: MPI_SUCCESS for a member (or MPI_PROC_NULL when allowed), MPI_ERR_RANK otherwise.
int check_target(const Binding& b, const rma::Window& window, int rank, bool proc_null_ok = true);

}  // namespace progsim::mpi
