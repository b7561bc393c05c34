/* Stencil benchmark program (bench/speed.sh, case stencil-N).
 *
 * A 2-D Jacobi iteration on a periodic grid split over a P x Q process grid
 * (MPI_Dims_create); each rank owns an L x L block (default 16 x 16 doubles)
 * with a one-cell halo. Every step:
 *   - nonblocking halo exchange with the 4 neighbours: 4 MPI_Irecv, 4
 *     MPI_Isend of L doubles each (columns packed by hand, no derived types),
 *     one MPI_Waitall of the 8 requests;
 *   - the 5-point update of the block (a little arithmetic, no sleep);
 *   - one MPI_Allreduce (MPI_SUM) of one double: the block's sum.
 * On a 1 x Q or P x 1 grid (a prime number of ranks) a rank is its own
 * neighbour on one axis; the exchange is the same code.
 *
 * Usage: stencil [STEPS [L]]   (default 20 steps, L = 16)
 *
 * Rank 0 prints one line: "stencil ranks=N grid=PxQ L=L steps=S checksum=C time=T"
 * with C the global sum after the last step (the periodic 5-point average
 * conserves the sum: C is the sum of the initial values up to rounding, the
 * same for every progress policy and tool) and T its simulated time
 * (MPI_Wtime). Built unchanged with progsim-cc and with SMPI's smpicc. */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

static int parse(const char* s, int fallback)
{
  char* end = NULL;
  long v = s ? strtol(s, &end, 10) : fallback;
  if (s && (*s == '\0' || *end != '\0' || v <= 0 || v > 1000000))
    return -1;
  return (int)v;
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  int steps = parse(argc > 1 ? argv[1] : NULL, 20);
  int L = parse(argc > 2 ? argv[2] : NULL, 16);
  if (steps < 0 || L < 0) {
    if (rank == 0)
      fprintf(stderr, "usage: stencil [STEPS [L]] (positive integers)\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }

  int dims[2] = {0, 0};
  MPI_Dims_create(size, 2, dims);
  int P = dims[0], Q = dims[1];
  int pi = rank / Q, qi = rank % Q;
  int north = ((pi + P - 1) % P) * Q + qi, south = ((pi + 1) % P) * Q + qi;
  int west = pi * Q + (qi + Q - 1) % Q, east = pi * Q + (qi + 1) % Q;

  int W = L + 2; /* row length with the halo */
  double* u = calloc((size_t)W * W, sizeof(double));
  double* v = calloc((size_t)W * W, sizeof(double));
  double* sendbuf = malloc(4 * (size_t)L * sizeof(double));
  double* recvbuf = malloc(4 * (size_t)L * sizeof(double));
  if (!u || !v || !sendbuf || !recvbuf) {
    fprintf(stderr, "stencil: rank %d: out of memory\n", rank);
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
#define AT(a, i, j) (a)[(size_t)(i) * W + (j)]
  /* Deterministic initial values: a function of the global cell index. */
  for (int i = 1; i <= L; i++)
    for (int j = 1; j <= L; j++) {
      long gi = (long)pi * L + i, gj = (long)qi * L + j;
      AT(u, i, j) = (double)((gi * 7 + gj * 13) % 101) / 100.0;
    }

  double sum = 0;
  for (int step = 0; step < steps; step++) {
    /* Faces: 0 north (row 1), 1 south (row L), 2 west (column 1), 3 east (column L). */
    double* sn = sendbuf;
    double* ss = sendbuf + L;
    double* sw = sendbuf + 2 * L;
    double* se = sendbuf + 3 * L;
    for (int k = 0; k < L; k++) {
      sn[k] = AT(u, 1, k + 1);
      ss[k] = AT(u, L, k + 1);
      sw[k] = AT(u, k + 1, 1);
      se[k] = AT(u, k + 1, L);
    }
    MPI_Request req[8];
    /* Tags name the direction of travel, so a rank that is its own
     * neighbour (P or Q = 1 or 2) still matches the right halves. */
    MPI_Irecv(recvbuf + 0 * L, L, MPI_DOUBLE, north, 1, MPI_COMM_WORLD, &req[0]); /* travelled south */
    MPI_Irecv(recvbuf + 1 * L, L, MPI_DOUBLE, south, 0, MPI_COMM_WORLD, &req[1]); /* travelled north */
    MPI_Irecv(recvbuf + 2 * L, L, MPI_DOUBLE, west, 3, MPI_COMM_WORLD, &req[2]);  /* travelled east */
    MPI_Irecv(recvbuf + 3 * L, L, MPI_DOUBLE, east, 2, MPI_COMM_WORLD, &req[3]);  /* travelled west */
    MPI_Isend(sn, L, MPI_DOUBLE, north, 0, MPI_COMM_WORLD, &req[4]);
    MPI_Isend(ss, L, MPI_DOUBLE, south, 1, MPI_COMM_WORLD, &req[5]);
    MPI_Isend(sw, L, MPI_DOUBLE, west, 2, MPI_COMM_WORLD, &req[6]);
    MPI_Isend(se, L, MPI_DOUBLE, east, 3, MPI_COMM_WORLD, &req[7]);
    MPI_Waitall(8, req, MPI_STATUSES_IGNORE);
    for (int k = 0; k < L; k++) {
      AT(u, 0, k + 1) = recvbuf[0 * L + k];
      AT(u, L + 1, k + 1) = recvbuf[1 * L + k];
      AT(u, k + 1, 0) = recvbuf[2 * L + k];
      AT(u, k + 1, L + 1) = recvbuf[3 * L + k];
    }
    double local = 0;
    for (int i = 1; i <= L; i++)
      for (int j = 1; j <= L; j++) {
        AT(v, i, j) = 0.2 * (AT(u, i, j) + AT(u, i - 1, j) + AT(u, i + 1, j) + AT(u, i, j - 1) + AT(u, i, j + 1));
        local += AT(v, i, j);
      }
    double* t = u;
    u = v;
    v = t;
    MPI_Allreduce(&local, &sum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  }
#undef AT
  double end = MPI_Wtime();
  if (rank == 0)
    printf("stencil ranks=%d grid=%dx%d L=%d steps=%d checksum=%.6f time=%.9f\n", size, P, Q, L, steps, sum, end);
  free(u);
  free(v);
  free(sendbuf);
  free(recvbuf);
  MPI_Finalize();
  return 0;
}
