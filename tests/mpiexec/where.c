/* Prints where each rank runs, and the environment variables named on the
 * command line: "rank 2 of 4 on node-1 FOO=bar". "sleep=S" sleeps S
 * (simulated) seconds first. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  int rank, size, len;
  char host[MPI_MAX_PROCESSOR_NAME];
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  MPI_Get_processor_name(host, &len);
  printf("rank %d of %d on %s", rank, size, host);
  for (int i = 1; i < argc; i++) {
    if (strncmp(argv[i], "sleep=", 6) == 0) {
      sleep((unsigned)atoi(argv[i] + 6));
      continue;
    }
    const char* value = getenv(argv[i]);
    printf(" %s=%s", argv[i], value ? value : "(unset)");
  }
  printf("\n");
  MPI_Finalize();
  return 0;
}
