// The MPI library's state inside one rank (one MPI process).
#pragma once

#include <mpi.h>

namespace progsim::mpi {

struct Process {
  int world_rank = 0;
  int thread_level = MPI_THREAD_SINGLE;
  MPI_Errhandler world_errhandler = MPI_ERRORS_ARE_FATAL;
  MPI_Errhandler self_errhandler = MPI_ERRORS_ARE_FATAL;
};

}  // namespace progsim::mpi
