/* Exercises every call the trace recorder knows (issue 6), for record ->
 * replay round trips: nonblocking ring exchange with compute, test and
 * waitall, collectives on MPI_COMM_WORLD and on split/duplicated
 * communicators, sendrecv, ssend, sleep and MPI_Wtime loops. Needs 4 ranks. */
#include <mpi.h>
#include <stdio.h>
#include <unistd.h>

#define BIG (1 << 20)
static char out[4 * BIG], in[4 * BIG];

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  double t0 = MPI_Wtime();
  int right = (rank + 1) % size, left = (rank + size - 1) % size;

  MPI_Request requests[2];
  MPI_Irecv(in, BIG, MPI_CHAR, left, 1, MPI_COMM_WORLD, &requests[0]);
  MPI_Isend(out, BIG, MPI_CHAR, right, 1, MPI_COMM_WORLD, &requests[1]);
  progsim_compute(0.002 * (rank + 1));
  int flag = 0;
  MPI_Test(&requests[0], &flag, MPI_STATUS_IGNORE);
  MPI_Waitall(2, requests, MPI_STATUSES_IGNORE);

  double x[64] = {0}, y[64];
  MPI_Allreduce(x, y, 64, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  MPI_Sendrecv(out, 1000, MPI_INT, right, 2, in, 1000, MPI_INT, left, 2, MPI_COMM_WORLD, MPI_STATUS_IGNORE);

  MPI_Comm half, dup;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  MPI_Bcast(out, 5000, MPI_CHAR, 0, half);
  MPI_Comm_dup(half, &dup);
  MPI_Reduce(x, y, 8, MPI_DOUBLE, MPI_MAX, 1, dup);
  MPI_Comm_free(&dup);
  MPI_Comm_free(&half);

  int counts[4] = {100, 2000, 30000, 400}, displs[4] = {0, 100, 2100, 32100};
  MPI_Alltoall(out, 3000, MPI_CHAR, in, 3000, MPI_CHAR, MPI_COMM_WORLD);
  int scounts[4], sdispls[4];
  for (int i = 0; i < 4; i++) {
    scounts[i] = counts[rank];
    sdispls[i] = i * counts[rank];
  }
  MPI_Alltoallv(out, scounts, sdispls, MPI_CHAR, in, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
  MPI_Gather(out, 700, MPI_CHAR, in, 700, MPI_CHAR, 2, MPI_COMM_WORLD);
  MPI_Gatherv(out, counts[rank], MPI_CHAR, in, counts, displs, MPI_CHAR, 3, MPI_COMM_WORLD);
  MPI_Allgather(out, 900, MPI_CHAR, in, 900, MPI_CHAR, MPI_COMM_WORLD);
  MPI_Allgatherv(out, counts[rank], MPI_CHAR, in, counts, displs, MPI_CHAR, MPI_COMM_WORLD);
  MPI_Scatter(out, 600, MPI_CHAR, in, 600, MPI_CHAR, 1, MPI_COMM_WORLD);
  MPI_Reduce_scatter_block(x, y, 4, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  int rcounts[4] = {1, 2, 3, 4};
  MPI_Reduce_scatter(x, y, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);

  if (rank == 0)
    MPI_Ssend(out, 50000, MPI_CHAR, 1, 3, MPI_COMM_WORLD);
  else if (rank == 1)
    MPI_Recv(in, 50000, MPI_CHAR, 0, 3, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  if (rank == 2) {
    MPI_Request request;
    MPI_Issend(out, 10, MPI_CHAR, 3, 4, MPI_COMM_WORLD, &request);
    MPI_Wait(&request, MPI_STATUS_IGNORE);
  } else if (rank == 3) {
    MPI_Recv(in, 10, MPI_CHAR, 2, 4, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  }
  usleep(1500 * (rank + 1));
  while (MPI_Wtime() - t0 < 0.05)
    ;
  MPI_Barrier(MPI_COMM_WORLD);
  printf("rank %d done at %.9f\n", rank, MPI_Wtime() - t0);
  MPI_Finalize();
  return 0;
}
