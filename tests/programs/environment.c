/* Versions, thread level, Initialized/Finalized, Wtick. */
#include <mpi.h>
#include <stdio.h>

int main(int argc, char** argv)
{
  int flag, provided, version, subversion, len;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING];
  MPI_Initialized(&flag);
  printf("initialized before: %d\n", flag);
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  MPI_Initialized(&flag);
  printf("initialized after: %d, provided=%s\n", flag,
         provided == MPI_THREAD_FUNNELED ? "MPI_THREAD_FUNNELED" : "other");
  MPI_Get_version(&version, &subversion);
  MPI_Get_library_version(lib, &len);
  printf("MPI %d.%d, library: %s\n", version, subversion, lib);
  printf("wtick: %g\n", MPI_Wtick());
  MPI_Finalize();
  MPI_Finalized(&flag);
  printf("finalized: %d\n", flag);
  return 0;
}
