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
    /* Local queries run inline (no state saved): errno is kept by hand,
     * also when the query fails and its error is returned. */
    int size = 0;
    errno = 4000 + rank;
    MPI_Type_size(MPI_INT, &size);
    CHECK(errno == 4000 + rank, "errno is %d after MPI_Type_size", errno);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    errno = 5000 + rank;
    int err = MPI_Type_size(MPI_DATATYPE_NULL, &size);
    CHECK(err != MPI_SUCCESS && errno == 5000 + rank, "errno is %d after a failed MPI_Type_size", errno);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  }
  finish("errno");
  MPI_Finalize();
  return 0;
}
