/* A collective mismatch after a completed nonblocking collective: rank 0
 * calls MPI_Iallgather where rank 1 calls MPI_Ibarrier. Both call sites are
 * named: each rank's own line (the calls go through the interposed trace
 * library, whose call site must be kept per rank, not shared: rank 0 once
 * got rank 1's MPI_Init line). */
#include <mpi.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, x = 1, y[8];
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Request r;
  MPI_Iexscan(&x, y, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  if (rank == 0)
    MPI_Iallgather(&x, 1, MPI_INT, y, 1, MPI_INT, MPI_COMM_WORLD, &r);
  else
    MPI_Ibarrier(MPI_COMM_WORLD, &r);
  MPI_Wait(&r, MPI_STATUS_IGNORE);
  MPI_Finalize();
  return 0;
}
