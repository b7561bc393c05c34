// A window's life (MPI-4.1 §12.2) as one member sees it, once the binding
// checked the arguments. Creation (WindowCreation.cpp): the members agree on a fresh context id for
// the window's internal communicator (fence and free synchronize over it),
// register their memory in the window's job-wide object, and meet in a
// barrier so that every member's memory is known before anyone accesses it.
// Window memory is watched (sim/memory): a rank busy-waiting on it with plain
// loads lets simulated time pass and wakes at the next write.
#pragma once

#include "core/CallContext.hpp"
#include "core/Communicator.hpp"
#include "core/Info.hpp"
#include "rma/Window.hpp"

#include <mpi.h>

namespace progsim::mpi::rma {

// This member's memory, as the creating procedure received it.
struct WindowMemory {
  Flavor flavor = Flavor::Create;
  void* base = nullptr;  // MPI_Win_create's memory
  MPI_Aint size = 0;     // bytes (0 for MPI_Win_create_dynamic)
  int disp_unit = 1;
};

// What creation gives the member: its window handle and the base of its
// part (memory MPI allocated, for baseptr), or the error that stopped it.
struct CreatedWindow {
  int error = MPI_SUCCESS;      // an MPI error class
  const char* failure = "";     // what failed, when `error` is set
  MPI_Win handle = MPI_WIN_NULL;
  void* base = nullptr;
};

// Collective over `parent` (an intracommunicator). `user_hints`: the info
// the program passed, on top of the defaults of the window info keys.
CreatedWindow create_window(const CallContext& caller, const Communicator& parent, const WindowMemory& memory,
                            const Info& user_hints);

// MPI_Win_free (WindowFree.cpp), collective: first this member's operations
// complete and the members meet in a barrier (returns its error class or
// MPI_SUCCESS); the binding then runs the attribute delete callbacks, and
// release_window unwatches and frees the memory and drops the window.
int quiesce_for_free(const CallContext& caller, Window& w);
void release_window(const CallContext& caller, Window& w);

}  // namespace progsim::mpi::rma
