/* The HTML report at scale (issue 18): argv[1] MPI_Allreduce calls of one
 * int (default 200), then every rank sleeps 1 s, then one MPI_Allreduce of
 * 8 MiB of doubles, whose rounds a zoomed view must show. Rank 0 prints
 * how long that collective took. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#define COUNT (1024 * 1024)

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, x = 1, n = argc > 1 ? atoi(argv[1]) : 200;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (int i = 0; i < n; ++i)
    MPI_Allreduce(MPI_IN_PLACE, &x, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  sleep(1);
  double* data = malloc(sizeof(double) * COUNT);
  for (int i = 0; i < COUNT; ++i)
    data[i] = rank;
  double t0 = MPI_Wtime();
  MPI_Allreduce(MPI_IN_PLACE, data, COUNT, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t1 = MPI_Wtime();
  if (rank == 0)
    printf("%d allreduces; the 8 MiB allreduce ran from %.9f s to %.9f s (%.3f ms)\n", n, t0, t1, (t1 - t0) * 1e3);
  free(data);
  MPI_Finalize();
  return 0;
}
