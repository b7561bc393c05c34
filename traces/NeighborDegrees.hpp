// How many neighbors a rank has in a communicator's virtual topology: the
// recorder sizes the lists of the neighborhood collectives' events by them,
// the replay checks them against the communicator it made.
#pragma once

#include <mpi.h>

#include <utility>

namespace progsim::traces {

// {in-degree, out-degree} of world rank `rank` in `comm`; {0, 0} without a
// topology (the collective fails, in the run and in its replay).
std::pair<int, int> neighbor_degrees(int rank, MPI_Comm comm);

}  // namespace progsim::traces
