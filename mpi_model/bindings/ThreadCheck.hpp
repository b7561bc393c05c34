// Which thread calls MPI. Ranks are coroutines of the one simulator thread,
// so progsim provides at most MPI_THREAD_FUNNELED: only the main thread of a
// process may call MPI (MPI-4.1 §11.6). A call from another thread of the
// program (a pthread it created) cannot enter the simulator: it ends the run
// with a fatal error naming the rank, the call and the provided level.
#pragma once

#include "sim/Rank.hpp"

namespace progsim::mpi {

// "MPI_THREAD_FUNNELED"
const char* thread_level_name(int level);

// The rank calling `call` (nullptr outside any rank). From a thread other
// than the simulator thread it does not return: the run ends as aborted.
// `caller`: where the program called, to tell which rank's thread it is.
sim::Rank* checked_calling_rank(const char* call, const void* caller);

// For the procedures that any thread may call (MPI_Initialized,
// MPI_Finalized, MPI_Query_thread, MPI_Is_thread_main, MPI_Get_version,
// MPI_Get_library_version): the rank, or nullptr from another thread.
sim::Rank* calling_rank_any_thread();

}  // namespace progsim::mpi
