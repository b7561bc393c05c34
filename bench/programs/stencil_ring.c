/* The program tools/gen-stencil-trace.py's trace stands for (bench/README.md,
 * "Session 20": a replayed event's instructions against the same call made
 * live). Per iteration: MPI_Irecv from the left (tag 0) and the right (tag
 * 1), MPI_Isend to the right (tag 0) and the left (tag 1), 100 us of
 * progsim_compute, MPI_Waitall of the four, an MPI_Allreduce (MPI_SUM) of
 * one double; the calls and order of the generated trace, so its run and
 * the trace's replay have the same simulated time (to 0.1 us: the run's
 * MPI_Comm_rank and MPI_Comm_size).
 *
 * Usage: stencil_ring [ITERATIONS [HALO_BYTES]]   (default 10, 1024) */
#include <mpi.h>
#include <stdlib.h>

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank, n;
  int iterations = argc > 1 ? atoi(argv[1]) : 10;
  int bytes = argc > 2 ? atoi(argv[2]) : 1024;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  if (iterations < 0 || bytes < 0)
    MPI_Abort(MPI_COMM_WORLD, 2);
  int left = (rank - 1 + n) % n, right = (rank + 1) % n;
  char* in = calloc(2, (size_t)bytes + 1);
  char* out = calloc(2, (size_t)bytes + 1);
  if (!in || !out)
    MPI_Abort(MPI_COMM_WORLD, 3);
  for (int it = 0; it < iterations; it++) {
    MPI_Request r[4];
    MPI_Irecv(in, bytes, MPI_BYTE, left, 0, MPI_COMM_WORLD, &r[0]);
    MPI_Irecv(in + bytes, bytes, MPI_BYTE, right, 1, MPI_COMM_WORLD, &r[1]);
    MPI_Isend(out, bytes, MPI_BYTE, right, 0, MPI_COMM_WORLD, &r[2]);
    MPI_Isend(out + bytes, bytes, MPI_BYTE, left, 1, MPI_COMM_WORLD, &r[3]);
    progsim_compute(1e-4);
    MPI_Waitall(4, r, MPI_STATUSES_IGNORE);
    double x = 1, sum = 0;
    MPI_Allreduce(&x, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
  free(in);
  free(out);
  MPI_Finalize();
  return 0;
}
