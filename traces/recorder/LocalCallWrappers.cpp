// The local calls with a wrapper of their own (the others reach the generic
// hook, RecorderHook.cpp): consecutive equal calls are one `local` event.
#include "traces/recorder/RecorderInternals.hpp"

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

double MPI_Wtime(void)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Wtime", PMPI_Wtime());
}

int MPI_Comm_rank(MPI_Comm comm, int* rank)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Comm_rank", PMPI_Comm_rank(comm, rank));
}

int MPI_Comm_size(MPI_Comm comm, int* size)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Comm_size", PMPI_Comm_size(comm, size));
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Get_count", PMPI_Get_count(status, datatype, count));
}

}  // extern "C"
