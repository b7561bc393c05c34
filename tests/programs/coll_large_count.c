/* The large-count collectives (MPI-4.1 §19.2: "_c" procedures with MPI_Count
 * counts and MPI_Aint displacements) on MPI_COMM_WORLD, each in the form
 * given as argument: blocking (MPI_Bcast_c), nonblocking (MPI_Ibcast_c) or
 * persistent (MPI_Bcast_init_c, started twice). Every collective of
 * chapter 6 with data is checked, with MPI_Reduce_local_c, and the
 * neighborhood collectives on a periodic ring (§8.6-8.8). Displacements
 * beyond INT_MAX elements (base pointer moved back by that much) show that
 * they are not cut to int. */
#include "check.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#define MAXP 16
#define FAR ((MPI_Aint)INT_MAX + 1000) /* a displacement no int holds */

static int form = 0; /* 0 blocking, 1 nonblocking, 2 persistent */

/* Calls MPI_<Name>_c, MPI_<IName>_c or MPI_<Name>_init_c with `...` (the
 * arguments up to and including the communicator) and completes it. */
#define CALL3(Name, IName, ...)                                 \
  do {                                                          \
    if (form == 0) {                                            \
      MPI_##Name##_c(__VA_ARGS__);                              \
    } else if (form == 1) {                                     \
      MPI_Request r_;                                           \
      MPI_##IName##_c(__VA_ARGS__, &r_);                        \
      MPI_Wait(&r_, MPI_STATUS_IGNORE);                         \
    } else {                                                    \
      MPI_Request r_;                                           \
      MPI_##Name##_init_c(__VA_ARGS__, MPI_INFO_NULL, &r_);     \
      for (int k_ = 0; k_ < 2; ++k_) {                          \
        MPI_Start(&r_);                                         \
        MPI_Wait(&r_, MPI_STATUS_IGNORE);                       \
      }                                                         \
      MPI_Request_free(&r_);                                    \
    }                                                           \
  } while (0)

static int rank, size;

static void fill(int* buf, int n, int value)
{
  for (int i = 0; i < n; ++i)
    buf[i] = value;
}

static void rooted(void)
{
  int root = size - 1;
  int buf[3], in[3 * MAXP], out[3 * MAXP];
  MPI_Count counts[MAXP];
  MPI_Aint displs[MAXP];

  for (int i = 0; i < 3; ++i)
    buf[i] = rank == root ? 70 + i : -1;
  CALL3(Bcast, Ibcast, buf, (MPI_Count)3, MPI_INT, root, MPI_COMM_WORLD);
  CHECK(buf[0] == 70 && buf[2] == 72, "Bcast_c: %d %d", buf[0], buf[2]);

  fill(in, 3 * MAXP, -1);
  int mine[2] = {rank, 10 * rank};
  CALL3(Gather, Igather, mine, (MPI_Count)2, MPI_INT, in, (MPI_Count)2, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int r = 0; r < size; ++r)
      CHECK(in[2 * r] == r && in[2 * r + 1] == 10 * r, "Gather_c from %d: %d %d", r, in[2 * r], in[2 * r + 1]);

  /* Gatherv_c: rank r sends 1 + r % 2 ints, placed in reverse rank order. */
  fill(in, 3 * MAXP, -1);
  for (int r = 0; r < size; ++r) {
    counts[r] = 1 + r % 2;
    displs[r] = 2 * (size - 1 - r);
  }
  CALL3(Gatherv, Igatherv, mine, (MPI_Count)(1 + rank % 2), MPI_INT, in, counts, displs, MPI_INT, root,
        MPI_COMM_WORLD);
  if (rank == root)
    for (int r = 0; r < size; ++r)
      CHECK(in[displs[r]] == r && in[displs[r] + 1] == (r % 2 ? 10 * r : -1), "Gatherv_c from %d: %d %d", r,
            in[displs[r]], in[displs[r] + 1]);

  for (int i = 0; i < 2 * size; ++i)
    out[i] = 1000 + i;
  fill(buf, 3, -1);
  CALL3(Scatter, Iscatter, out, (MPI_Count)2, MPI_INT, buf, (MPI_Count)2, MPI_INT, root, MPI_COMM_WORLD);
  CHECK(buf[0] == 1000 + 2 * rank && buf[1] == 1001 + 2 * rank && buf[2] == -1, "Scatter_c: %d %d %d", buf[0],
        buf[1], buf[2]);

  fill(buf, 3, -1);
  CALL3(Scatterv, Iscatterv, out, counts, displs, MPI_INT, buf, (MPI_Count)(1 + rank % 2), MPI_INT, root,
        MPI_COMM_WORLD);
  CHECK(buf[0] == 1000 + displs[rank] && buf[1] == (rank % 2 ? 1001 + displs[rank] : -1), "Scatterv_c: %d %d",
        buf[0], buf[1]);

  int sum[2] = {-1, -1}, contrib[2] = {rank, 1};
  CALL3(Reduce, Ireduce, contrib, sum, (MPI_Count)2, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  if (rank == root)
    CHECK(sum[0] == size * (size - 1) / 2 && sum[1] == size, "Reduce_c: %d %d", sum[0], sum[1]);
}

static void all(void)
{
  int in[3 * MAXP], out[3 * MAXP], two[2] = {rank, -rank};
  MPI_Count counts[MAXP], scounts[MAXP];
  MPI_Aint displs[MAXP], sdispls[MAXP];
  MPI_Datatype types[MAXP];

  fill(in, 3 * MAXP, -1);
  CALL3(Allgather, Iallgather, two, (MPI_Count)2, MPI_INT, in, (MPI_Count)2, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(in[2 * r] == r && in[2 * r + 1] == -r, "Allgather_c from %d: %d %d", r, in[2 * r], in[2 * r + 1]);

  fill(in, 3 * MAXP, -1);
  for (int r = 0; r < size; ++r) {
    counts[r] = 1 + r % 2;
    displs[r] = 2 * (size - 1 - r);
  }
  CALL3(Allgatherv, Iallgatherv, two, (MPI_Count)(1 + rank % 2), MPI_INT, in, counts, displs, MPI_INT,
        MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(in[displs[r]] == r && in[displs[r] + 1] == (r % 2 ? -r : -1), "Allgatherv_c from %d", r);

  for (int i = 0; i < 2 * size; ++i)
    out[i] = 100 * rank + i;
  fill(in, 3 * MAXP, -1);
  CALL3(Alltoall, Ialltoall, out, (MPI_Count)2, MPI_INT, in, (MPI_Count)2, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(in[2 * r] == 100 * r + 2 * rank && in[2 * r + 1] == 100 * r + 2 * rank + 1, "Alltoall_c from %d", r);

  /* Alltoallv_c: to peer p, 1 + p % 2 ints from offset 3p; from peer r into
   * offset 3 (size - 1 - r). */
  for (int p = 0; p < size; ++p) {
    scounts[p] = 1 + p % 2;
    sdispls[p] = 3 * p;
    counts[p] = 1 + rank % 2;
    displs[p] = 3 * (size - 1 - p);
    types[p] = MPI_INT;
  }
  for (int i = 0; i < 3 * size; ++i)
    out[i] = 100 * rank + i;
  fill(in, 3 * MAXP, -1);
  CALL3(Alltoallv, Ialltoallv, out, scounts, sdispls, MPI_INT, in, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) {
    int* got = &in[displs[r]];
    CHECK(got[0] == 100 * r + 3 * rank && got[1] == (rank % 2 ? 100 * r + 3 * rank + 1 : -1),
          "Alltoallv_c from %d: %d %d", r, got[0], got[1]);
  }

  /* Alltoallw_c: the same layout, displacements in bytes. */
  for (int p = 0; p < size; ++p) {
    sdispls[p] *= (MPI_Aint)sizeof(int);
    displs[p] *= (MPI_Aint)sizeof(int);
  }
  fill(in, 3 * MAXP, -1);
  CALL3(Alltoallw, Ialltoallw, out, scounts, sdispls, types, in, counts, displs, types, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r) {
    int* got = &in[3 * (size - 1 - r)];
    CHECK(got[0] == 100 * r + 3 * rank && got[1] == (rank % 2 ? 100 * r + 3 * rank + 1 : -1),
          "Alltoallw_c from %d: %d %d", r, got[0], got[1]);
  }

  int sum[2] = {-1, -1}, contrib[2] = {rank, 1};
  CALL3(Allreduce, Iallreduce, contrib, sum, (MPI_Count)2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(sum[0] == size * (size - 1) / 2 && sum[1] == size, "Allreduce_c: %d %d", sum[0], sum[1]);

  /* Reduce_scatter(_block)_c: element i of every process's input is i + rank. */
  for (int i = 0; i < 3 * size; ++i)
    out[i] = i + rank;
  int part[3] = {-1, -1, -1};
  CALL3(Reduce_scatter_block, Ireduce_scatter_block, out, part, (MPI_Count)2, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  int base = size * (size - 1) / 2;
  CHECK(part[0] == size * 2 * rank + base && part[1] == size * (2 * rank + 1) + base && part[2] == -1,
        "Reduce_scatter_block_c: %d %d %d", part[0], part[1], part[2]);
  MPI_Count rcounts[MAXP];
  int first = 0;
  for (int r = 0; r < size; ++r) {
    rcounts[r] = 1 + r % 2;
    if (r < rank)
      first += 1 + r % 2;
  }
  fill(part, 3, -1);
  CALL3(Reduce_scatter, Ireduce_scatter, out, part, rcounts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(part[0] == size * first + base && part[1] == (rank % 2 ? size * (first + 1) + base : -1),
        "Reduce_scatter_c: %d %d", part[0], part[1]);

  int one = rank + 1, prefix = -1;
  CALL3(Scan, Iscan, &one, &prefix, (MPI_Count)1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(prefix == (rank + 1) * (rank + 2) / 2, "Scan_c: %d", prefix);
  prefix = -1;
  CALL3(Exscan, Iexscan, &one, &prefix, (MPI_Count)1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank > 0)
    CHECK(prefix == rank * (rank + 1) / 2, "Exscan_c: %d", prefix);
}

/* Displacements past INT_MAX elements: the buffers' base addresses are moved
 * back by FAR bytes and every displacement adds FAR (MPI_CHAR, extent 1). */
static void far_displacements(void)
{
  char out[MAXP], in[MAXP];
  MPI_Count counts[MAXP];
  MPI_Aint displs[MAXP];
  for (int p = 0; p < size; ++p) {
    out[p] = (char)(10 * rank + p);
    in[p] = -1;
    counts[p] = 1;
    displs[p] = FAR + p;
  }
  char* out_base = (char*)((MPI_Aint)out - FAR);
  char* in_base = (char*)((MPI_Aint)in - FAR);
  CALL3(Alltoallv, Ialltoallv, out_base, counts, displs, MPI_CHAR, in_base, counts, displs, MPI_CHAR,
        MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(in[r] == (char)(10 * r + rank), "Alltoallv_c at a far displacement, from %d: %d", r, in[r]);

  memset(in, -1, sizeof in);
  CALL3(Allgatherv, Iallgatherv, &out[0], (MPI_Count)1, MPI_CHAR, in_base, counts, displs, MPI_CHAR,
        MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(in[r] == (char)(10 * r), "Allgatherv_c at a far displacement, from %d: %d", r, in[r]);
}

static void neighbors(void)
{
  int dims[1] = {size}, periods[1] = {1}, left, right;
  MPI_Comm ring;
  MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring);
  MPI_Cart_shift(ring, 0, 1, &left, &right);
  int got[4] = {-1, -1, -1, -1}, out[4] = {100 * rank, 100 * rank + 1, 100 * rank + 2, 100 * rank + 3};
  MPI_Count counts[2] = {2, 2};
  MPI_Aint displs[2] = {2, 0}, bytes[2] = {2 * sizeof(int), 0};
  MPI_Datatype types[2] = {MPI_INT, MPI_INT};

  CALL3(Neighbor_allgather, Ineighbor_allgather, &rank, (MPI_Count)1, MPI_INT, got, (MPI_Count)1, MPI_INT, ring);
  CHECK(got[0] == left && got[1] == right, "Neighbor_allgather_c: %d %d", got[0], got[1]);

  fill(got, 4, -1);
  CALL3(Neighbor_allgatherv, Ineighbor_allgatherv, out, (MPI_Count)2, MPI_INT, got, counts, displs, MPI_INT, ring);
  CHECK(got[2] == 100 * left && got[3] == 100 * left + 1 && got[0] == 100 * right && got[1] == 100 * right + 1,
        "Neighbor_allgatherv_c: %d %d %d %d", got[0], got[1], got[2], got[3]);

  /* Block 0 goes left, block 1 right; from the left comes its block 1. */
  fill(got, 4, -1);
  CALL3(Neighbor_alltoall, Ineighbor_alltoall, out, (MPI_Count)2, MPI_INT, got, (MPI_Count)2, MPI_INT, ring);
  CHECK(got[0] == 100 * left + 2 && got[2] == 100 * right, "Neighbor_alltoall_c: %d %d", got[0], got[2]);

  fill(got, 4, -1);
  CALL3(Neighbor_alltoallv, Ineighbor_alltoallv, out, counts, displs, MPI_INT, got, counts, displs, MPI_INT, ring);
  CHECK(got[2] == 100 * left && got[0] == 100 * right + 2, "Neighbor_alltoallv_c: %d %d", got[2], got[0]);

  fill(got, 4, -1);
  CALL3(Neighbor_alltoallw, Ineighbor_alltoallw, out, counts, bytes, types, got, counts, bytes, types, ring);
  CHECK(got[2] == 100 * left && got[0] == 100 * right + 2, "Neighbor_alltoallw_c: %d %d", got[2], got[0]);
  MPI_Comm_free(&ring);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  CHECK(size <= MAXP, "at most %d ranks", MAXP);
  if (argc > 1)
    form = strcmp(argv[1], "nonblocking") == 0 ? 1 : strcmp(argv[1], "persistent") == 0 ? 2 : 0;
  rooted();
  all();
  far_displacements();
  neighbors();

  int a[2] = {3, 4}, b[2] = {10, 20};
  MPI_Reduce_local_c(a, b, (MPI_Count)2, MPI_INT, MPI_PROD);
  CHECK(b[0] == 30 && b[1] == 80, "Reduce_local_c: %d %d", b[0], b[1]);

  finish("coll_large_count");
  MPI_Finalize();
  return 0;
}
