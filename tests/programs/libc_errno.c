/* errno is per process: each rank finds its own value after an MPI call,
 * a sleep and a computation, whatever the other ranks set meanwhile. */
#include "check.h"

#include <errno.h>
#include <unistd.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int round = 0; round < 3; round++) {
    errno = 1000 + 10 * rank + round;
    MPI_Barrier(MPI_COMM_WORLD);
    CHECK(errno == 1000 + 10 * rank + round, "errno is %d after MPI_Barrier", errno);
    errno = 2000 + rank;
    usleep(10 * (unsigned)(rank + 1));
    CHECK(errno == 2000 + rank, "errno is %d after usleep", errno);
    errno = 3000 + rank;
    progsim_compute(1e-6 * (rank + 1));
    CHECK(errno == 3000 + rank, "errno is %d after progsim_compute", errno);
  }
  finish("errno");
  MPI_Finalize();
  return 0;
}
