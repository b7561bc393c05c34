// How many ranks and neighbors a rank has in a communicator, as the model
// knows them (no MPI call, which would cost time the program did not
// spend): the recorder sizes the lists of its events by them, the replay
// checks them against the communicator it made.
#pragma once

#include <mpi.h>

#include <utility>

namespace progsim::traces {

// The size of `comm` seen from world rank `rank`; 0 for an unknown handle.
int comm_size(int rank, MPI_Comm comm);

// {in-degree, out-degree} of world rank `rank` in `comm`; {0, 0} without a
// topology (the collective fails, in the run and in its replay).
std::pair<int, int> neighbor_degrees(int rank, MPI_Comm comm);

}  // namespace progsim::traces
