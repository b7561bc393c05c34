// Tunables of the MPI library model, registered in the --cfg table by
// MpiModel (see MpiModel.cpp for units, defaults and meanings).
#pragma once

namespace progsim::mpi {

struct ModelParameters {
  // Placeholder grows with the protocols and policies (issue 3).
  double barrier_cost = 0;  // extra seconds for the interim MPI_Barrier
};

}  // namespace progsim::mpi
