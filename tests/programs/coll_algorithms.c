/* Every collective on any number of ranks with known results, at several
 * message sizes (1 item to 70,000 ints: eager and rendezvous messages, the
 * small- and large-message algorithms), in one of three forms given as the
 * first argument: "blocking", "nonblocking" (MPI_I... + MPI_Wait) or
 * "persistent" (MPI_..._init, started twice, freed). Non-commutative user
 * operations (2x2 matrix products) check the rank order of reduce,
 * allreduce, scan and exscan. "nonblocking" also runs several collectives
 * in flight at once on one communicator, completed in reverse order.
 * Algorithms are forced with --cfg coll-<name>=... by the tests. With
 * "every-algorithm" as the second argument it makes only the calls that
 * every registered algorithm serves (tests/programs/coll_registry.sh forces
 * each in turn): commutative operations, no v variants, at least as many
 * items as the largest power of two <= the process count. */
#include "check.h"

#include <stdlib.h>
#include <string.h>

static int mode; /* 0 blocking, 1 nonblocking, 2 persistent */
static int every_algorithm; /* only the calls every algorithm serves */

#define COLL(B, I, ...)                                          \
  do {                                                           \
    if (mode == 0) {                                             \
      MPI_##B(__VA_ARGS__);                                      \
    } else if (mode == 1) {                                      \
      MPI_Request r_;                                            \
      MPI_##I(__VA_ARGS__, &r_);                                 \
      MPI_Wait(&r_, MPI_STATUS_IGNORE);                          \
    } else {                                                     \
      MPI_Request r_;                                            \
      MPI_##B##_init(__VA_ARGS__, MPI_INFO_NULL, &r_);           \
      for (int k_ = 0; k_ < 2; ++k_) {                           \
        MPI_Start(&r_);                                          \
        MPI_Wait(&r_, MPI_STATUS_IGNORE);                        \
      }                                                          \
      MPI_Request_free(&r_);                                     \
    }                                                            \
  } while (0)

static void matmul(const int* a, const int* b, int* c)
{
  int t[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
              a[2] * b[1] + a[3] * b[3]};
  memcpy(c, t, sizeof t);
}

static void matmul_op(void* in, void* inout, int* len, MPI_Datatype* type)
{
  (void)type;
  for (int i = 0; i < *len; ++i)
    matmul((int*)in + 4 * i, (int*)inout + 4 * i, (int*)inout + 4 * i);
}

/* Rank r's matrix (item k): [[r+1, k+1], [1, 0]] mod nothing: small values. */
static void matrix_of(int r, int k, int* m)
{
  m[0] = (r % 3) + 1;
  m[1] = (k % 2) + 1;
  m[2] = 1;
  m[3] = 0;
}

static void product(int first, int last, int k, int* m)
{
  m[0] = 1, m[1] = 0, m[2] = 0, m[3] = 1;
  for (int r = first; r <= last; ++r) {
    int x[4];
    matrix_of(r, k, x);
    matmul(m, x, m);
  }
}

static int value(int rank, int i)
{
  return rank * 7 + i % 1000;
}

static long long sum_of(int size, int i)
{
  long long s = 0;
  for (int r = 0; r < size; ++r)
    s += value(r, i);
  return s;
}

static void reductions(int rank, int size, int count)
{
  int* in = malloc(sizeof(int) * (size_t)count * (size_t)size);
  int* out = malloc(sizeof(int) * (size_t)count * (size_t)size);
  for (int i = 0; i < count * size; ++i)
    in[i] = value(rank, i);

  memset(out, 0, sizeof(int) * (size_t)count);
  COLL(Allreduce, Iallreduce, in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i)
    if (out[i] != sum_of(size, i)) {
      CHECK(0, "allreduce(%d)[%d] = %d, expected %lld", count, i, out[i], sum_of(size, i));
      break;
    }

  int root = size - 1;
  memset(out, 0, sizeof(int) * (size_t)count);
  COLL(Reduce, Ireduce, in, out, count, MPI_INT, MPI_SUM, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int i = 0; i < count; ++i)
      if (out[i] != sum_of(size, i)) {
        CHECK(0, "reduce(%d)[%d] = %d", count, i, out[i]);
        break;
      }

  /* reduce_scatter_block: count items per rank */
  memset(out, 0, sizeof(int) * (size_t)count);
  COLL(Reduce_scatter_block, Ireduce_scatter_block, in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i)
    if (out[i] != sum_of(size, rank * count + i)) {
      CHECK(0, "reduce_scatter_block(%d)[%d] = %d", count, i, out[i]);
      break;
    }

  /* reduce_scatter: rank r gets count + r % 3 - 1 items (at least 0) */
  int* counts = malloc(sizeof(int) * (size_t)size);
  int total = 0, first = 0;
  for (int r = 0; r < size; ++r) {
    counts[r] = count + r % 3 - 1 < 0 ? 0 : count + r % 3 - 1;
    if (r < rank)
      first += counts[r];
    total += counts[r];
  }
  if (total <= count * size) {
    memset(out, 0, sizeof(int) * (size_t)count * (size_t)size);
    COLL(Reduce_scatter, Ireduce_scatter, in, out, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    for (int i = 0; i < counts[rank]; ++i)
      if (out[i] != sum_of(size, first + i)) {
        CHECK(0, "reduce_scatter(%d)[%d] = %d", count, i, out[i]);
        break;
      }
  }
  free(counts);

  memset(out, 0, sizeof(int) * (size_t)count);
  COLL(Scan, Iscan, in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i) {
    long long s = 0;
    for (int r = 0; r <= rank; ++r)
      s += value(r, i);
    if (out[i] != s) {
      CHECK(0, "scan(%d)[%d] = %d, expected %lld", count, i, out[i], s);
      break;
    }
  }
  for (int i = 0; i < count; ++i)
    out[i] = -5;
  COLL(Exscan, Iexscan, in, out, count, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i) {
    long long s = 0;
    for (int r = 0; r < rank; ++r)
      s += value(r, i);
    if (rank > 0 && out[i] != s) {
      CHECK(0, "exscan(%d)[%d] = %d, expected %lld", count, i, out[i], s);
      break;
    }
    if (rank == 0 && out[i] != -5) {
      CHECK(0, "exscan(%d) changed rank 0's buffer", count);
      break;
    }
  }

  if (!every_algorithm) {
    double d = rank + 0.25, dmax = 0;
    COLL(Allreduce, Iallreduce, &d, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    CHECK(dmax == size - 0.75, "allreduce max %g", dmax);
  }
  free(in);
  free(out);
}

static void noncommutative(int rank, int size, MPI_Datatype mat, MPI_Op op)
{
  enum { N = 5 };
  int mine[4 * N], out[4 * N], expect[4];
  for (int k = 0; k < N; ++k)
    matrix_of(rank, k, mine + 4 * k);
  for (int root = 0; root < size; root += size - 1 > 0 ? size - 1 : 1) {
    memset(out, 0, sizeof out);
    COLL(Reduce, Ireduce, mine, out, N, mat, op, root, MPI_COMM_WORLD);
    if (rank == root)
      for (int k = 0; k < N; ++k) {
        product(0, size - 1, k, expect);
        CHECK(memcmp(out + 4 * k, expect, sizeof expect) == 0, "noncommutative reduce root %d item %d", root, k);
      }
    if (size == 1)
      break;
  }
  memset(out, 0, sizeof out);
  COLL(Allreduce, Iallreduce, mine, out, N, mat, op, MPI_COMM_WORLD);
  for (int k = 0; k < N; ++k) {
    product(0, size - 1, k, expect);
    CHECK(memcmp(out + 4 * k, expect, sizeof expect) == 0, "noncommutative allreduce item %d: %d %d %d %d", k,
          out[4 * k], out[4 * k + 1], out[4 * k + 2], out[4 * k + 3]);
  }
  memset(out, 0, sizeof out);
  COLL(Scan, Iscan, mine, out, N, mat, op, MPI_COMM_WORLD);
  for (int k = 0; k < N; ++k) {
    product(0, rank, k, expect);
    CHECK(memcmp(out + 4 * k, expect, sizeof expect) == 0, "noncommutative scan item %d", k);
  }
  memset(out, 0, sizeof out);
  COLL(Exscan, Iexscan, mine, out, N, mat, op, MPI_COMM_WORLD);
  if (rank > 0)
    for (int k = 0; k < N; ++k) {
      product(0, rank - 1, k, expect);
      CHECK(memcmp(out + 4 * k, expect, sizeof expect) == 0, "noncommutative exscan item %d", k);
    }
  int counts[64];
  for (int r = 0; r < size && r < 64; ++r)
    counts[r] = 1;
  int all[4 * 64], part[4];
  for (int r = 0; r < size && r < 64; ++r)
    matrix_of(rank, r, all + 4 * r);
  COLL(Reduce_scatter, Ireduce_scatter, all, part, counts, mat, op, MPI_COMM_WORLD);
  product(0, size - 1, rank, expect);
  CHECK(memcmp(part, expect, sizeof expect) == 0, "noncommutative reduce_scatter");
}

/* Allgatherv, gatherv and scatterv with `counts` items per rank at `displs`. */
static void gather_variants(int rank, int size, int count, int* a, int* b, const int* counts, const int* displs,
                            int root)
{
  size_t n = (size_t)count * (size_t)size;
  for (int i = 0; i < counts[rank]; ++i)
    a[i] = value(rank, i);
  memset(b, 0, sizeof(int) * n);
  COLL(Allgatherv, Iallgatherv, a, counts[rank], MPI_INT, b, counts, displs, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < counts[r]; ++i)
      CHECK(b[displs[r] + i] == value(r, i), "allgatherv block %d[%d] = %d", r, i, b[displs[r] + i]);
  memset(b, 0, sizeof(int) * n);
  COLL(Gatherv, Igatherv, a, counts[rank], MPI_INT, b, counts, displs, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root)
    for (int r = 0; r < size; ++r)
      for (int i = 0; i < counts[r]; ++i)
        CHECK(b[displs[r] + i] == value(r, i), "gatherv block %d[%d] = %d", r, i, b[displs[r] + i]);
  for (int r = 0; r < size; ++r)
    for (int i = 0; i < counts[r]; ++i)
      b[displs[r] + i] = value(r, i) + 5;
  memset(a, 0, sizeof(int) * (size_t)count);
  COLL(Scatterv, Iscatterv, b, counts, displs, MPI_INT, a, counts[rank], MPI_INT, root, MPI_COMM_WORLD);
  for (int i = 0; i < counts[rank]; ++i)
    CHECK(a[i] == value(rank, i) + 5, "scatterv[%d] = %d", i, a[i]);
}

static void movement(int rank, int size, int count)
{
  size_t n = (size_t)count * (size_t)size;
  int* a = malloc(sizeof(int) * n);
  int* b = malloc(sizeof(int) * n);
  int root = 1 % size;

  for (int i = 0; i < count; ++i)
    a[i] = rank == root ? value(root, i) : -1;
  COLL(Bcast, Ibcast, a, count, MPI_INT, root, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i)
    if (a[i] != value(root, i)) {
      CHECK(0, "bcast(%d)[%d] = %d", count, i, a[i]);
      break;
    }

  for (int i = 0; i < count; ++i)
    a[i] = value(rank, i);
  memset(b, 0, sizeof(int) * n);
  COLL(Allgather, Iallgather, a, count, MPI_INT, b, count, MPI_INT, MPI_COMM_WORLD);
  for (size_t j = 0; j < n; ++j)
    if (b[j] != value((int)(j / (size_t)count), (int)(j % (size_t)count))) {
      CHECK(0, "allgather(%d)[%zu] = %d", count, j, b[j]);
      break;
    }

  memset(b, 0, sizeof(int) * n);
  COLL(Gather, Igather, a, count, MPI_INT, b, count, MPI_INT, root, MPI_COMM_WORLD);
  if (rank == root)
    for (size_t j = 0; j < n; ++j)
      if (b[j] != value((int)(j / (size_t)count), (int)(j % (size_t)count))) {
        CHECK(0, "gather(%d)[%zu] = %d", count, j, b[j]);
        break;
      }

  for (size_t j = 0; j < n; ++j)
    b[j] = (int)j;
  memset(a, 0, sizeof(int) * (size_t)count);
  COLL(Scatter, Iscatter, b, count, MPI_INT, a, count, MPI_INT, root, MPI_COMM_WORLD);
  for (int i = 0; i < count; ++i)
    if (a[i] != rank * count + i) {
      CHECK(0, "scatter(%d)[%d] = %d", count, i, a[i]);
      break;
    }

  /* alltoall: block j of rank r holds r * 1000 + j */
  for (size_t j = 0; j < n; ++j)
    a[j] = rank * 1000 + (int)(j / (size_t)count);
  memset(b, 0, sizeof(int) * n);
  COLL(Alltoall, Ialltoall, a, count, MPI_INT, b, count, MPI_INT, MPI_COMM_WORLD);
  for (size_t j = 0; j < n; ++j)
    if (b[j] != (int)(j / (size_t)count) * 1000 + rank) {
      CHECK(0, "alltoall(%d)[%zu] = %d", count, j, b[j]);
      break;
    }

  /* allgatherv / gatherv / scatterv / alltoallv: rank r has r % 3 items
   * (0 included), blocks stored in reverse rank order */
  int* counts = malloc(sizeof(int) * (size_t)size);
  int* displs = malloc(sizeof(int) * (size_t)size);
  int total = 0;
  for (int r = size - 1; r >= 0; --r) {
    counts[r] = r % 3;
    displs[r] = total;
    total += counts[r];
  }
  if (!every_algorithm)
    gather_variants(rank, size, count, a, b, counts, displs, root);
  /* alltoallv: rank r sends (r + j) % 2 items to j, item value r*100+j */
  int sc[64], sd[64], rc[64], rd[64];
  int so = 0, ro = 0;
  for (int j = 0; j < size && j < 64; ++j) {
    sc[j] = (rank + j) % 2 + 1;
    sd[j] = so;
    so += sc[j];
    rc[j] = (j + rank) % 2 + 1;
    rd[j] = ro;
    ro += rc[j];
  }
  if (size <= 64 && (size_t)so <= n && (size_t)ro <= n) {
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < sc[j]; ++i)
        a[sd[j] + i] = rank * 100 + j;
    memset(b, 0, sizeof(int) * n);
    COLL(Alltoallv, Ialltoallv, a, sc, sd, MPI_INT, b, rc, rd, MPI_INT, MPI_COMM_WORLD);
    for (int j = 0; j < size; ++j)
      for (int i = 0; i < rc[j]; ++i)
        CHECK(b[rd[j] + i] == j * 100 + rank, "alltoallv from %d[%d] = %d", j, i, b[rd[j] + i]);
  }
  free(counts);
  free(displs);
  free(a);
  free(b);
  COLL(Barrier, Ibarrier, MPI_COMM_WORLD);
}

/* Several nonblocking collectives in flight at once on one communicator,
 * completed in reverse order (MPI-4.1 §6.12: they match in start order). */
static void concurrent(int rank, int size)
{
  enum { K = 4 };
  int in[K], out[K], b1 = rank == 0 ? 11 : 0, b2 = rank == size - 1 ? 22 : 0;
  MPI_Request r[K + 3];
  for (int k = 0; k < K; ++k) {
    in[k] = rank + k * 1000;
    MPI_Iallreduce(&in[k], &out[k], 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD, &r[k]);
  }
  MPI_Ibcast(&b1, 1, MPI_INT, 0, MPI_COMM_WORLD, &r[K]);
  MPI_Ibcast(&b2, 1, MPI_INT, size - 1, MPI_COMM_WORLD, &r[K + 1]);
  MPI_Ibarrier(MPI_COMM_WORLD, &r[K + 2]);
  for (int k = K + 2; k >= 0; --k)
    MPI_Wait(&r[k], MPI_STATUS_IGNORE);
  for (int k = 0; k < K; ++k)
    CHECK(out[k] == size * (size - 1) / 2 + size * k * 1000, "concurrent iallreduce %d = %d", k, out[k]);
  CHECK(b1 == 11 && b2 == 22, "concurrent ibcast %d %d", b1, b2);
  int flag = 0;
  MPI_Request t;
  MPI_Ibarrier(MPI_COMM_WORLD, &t);
  while (!flag)
    MPI_Test(&t, &flag, MPI_STATUS_IGNORE);
  CHECK(t == MPI_REQUEST_NULL, "test retired the request");
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const char* form = argc > 1 ? argv[1] : "blocking";
  every_algorithm = argc > 2 && strcmp(argv[2], "every-algorithm") == 0;
  mode = strcmp(form, "nonblocking") == 0 ? 1 : strcmp(form, "persistent") == 0 ? 2 : 0;
  MPI_Datatype mat;
  MPI_Type_contiguous(4, MPI_INT, &mat);
  MPI_Type_commit(&mat);
  MPI_Op op;
  MPI_Op_create(matmul_op, 0, &op);
  int pof2 = 1;
  while (pof2 * 2 <= size)
    pof2 *= 2;
  int sizes[] = {1, 3, 64, 1000, 70000};
  if (every_algorithm)
    sizes[0] = pof2, sizes[1] = pof2 + 1;
  for (int k = 0; k < 5; ++k) {
    reductions(rank, size, sizes[k]);
    movement(rank, size, sizes[k]);
  }
  if (!every_algorithm) {
    noncommutative(rank, size, mat, op);
    if (mode == 1)
      concurrent(rank, size);
  }
  MPI_Op_free(&op);
  MPI_Type_free(&mat);
  finish("coll_algorithms");
  MPI_Finalize();
  return 0;
}
