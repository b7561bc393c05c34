// The wrappers of MPI_Init, MPI_Init_thread and MPI_Finalize.
#include "traces/recorder/RecorderInternals.hpp"

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Init(int* argc, char*** argv)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "init"}}), PMPI_Init(argc, argv));
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "init"}}), PMPI_Init_thread(argc, argv, required, provided));
}

int MPI_Finalize(void)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "finalize"}}), PMPI_Finalize());
}

}  // extern "C"
