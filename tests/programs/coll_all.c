/* Every blocking collective with known results, meant for 5 ranks (not a
 * power of two, so the trees are irregular): bcast, reduce (commutative and
 * a non-commutative 2x2 matrix product in rank order, at roots 0 and 3),
 * allreduce, MINLOC/MAXLOC, gather(v), scatter(v), allgather(v),
 * alltoall(v,w), reduce_scatter(_block), scan, exscan, reduce_local, with
 * MPI_IN_PLACE where MPI allows it, derived datatypes, and on a split
 * communicator. */
#include "check.h"

#include <string.h>

/* 2x2 integer matrices, row major: c = a * b. */
static void matmul(const int* a, const int* b, int* c)
{
  int t[4] = {a[0] * b[0] + a[1] * b[2], a[0] * b[1] + a[1] * b[3], a[2] * b[0] + a[3] * b[2],
              a[2] * b[1] + a[3] * b[3]};
  memcpy(c, t, sizeof t);
}

static MPI_Datatype mat_type;

/* MPI_User_function: inout[i] = in[i] * inout[i] (in holds lower ranks). */
static void matmul_op(void* in, void* inout, int* len, MPI_Datatype* type)
{
  CHECK(*type == mat_type, "user op got datatype %x", *type);
  int* a = in;
  int* b = inout;
  for (int i = 0; i < *len; ++i)
    matmul(a + 4 * i, b + 4 * i, b + 4 * i);
}

/* Rank r's matrix: [[r+1, 1], [1, 0]] (products of these do not commute). */
static void matrix_of(int r, int* m)
{
  m[0] = r + 1;
  m[1] = 1;
  m[2] = 1;
  m[3] = 0;
}

/* M_first * ... * M_last. */
static void product(int first, int last, int* m)
{
  int id[4] = {1, 0, 0, 1};
  memcpy(m, id, sizeof id);
  for (int r = first; r <= last; ++r) {
    int x[4];
    matrix_of(r, x);
    matmul(m, x, m);
  }
}

static int same4(const int* a, const int* b)
{
  return memcmp(a, b, 4 * sizeof(int)) == 0;
}

static void noncommutative(int rank, int size)
{
  MPI_Op op;
  MPI_Op_create(matmul_op, 0, &op);
  int commute = -1;
  MPI_Op_commutative(op, &commute);
  CHECK(commute == 0, "MPI_Op_commutative %d", commute);
  MPI_Op_commutative(MPI_SUM, &commute);
  CHECK(commute == 1, "MPI_Op_commutative(MPI_SUM) %d", commute);

  int mine[8], result[8], expect[4], reversed[4];
  matrix_of(rank, mine);
  matrix_of(rank, mine + 4);  /* two matrices per rank: count 2 */
  product(0, size - 1, expect);
  int id[4] = {1, 0, 0, 1};
  memcpy(reversed, id, sizeof id);
  for (int r = size - 1; r >= 0; --r) {
    int x[4];
    matrix_of(r, x);
    matmul(reversed, x, reversed);
  }
  CHECK(!same4(expect, reversed), "the test matrices commute");

  for (int root = 0; root < size; root += 3) {
    memset(result, 0, sizeof result);
    MPI_Reduce(mine, result, 2, mat_type, op, root, MPI_COMM_WORLD);
    if (rank == root)
      CHECK(same4(result, expect) && same4(result + 4, expect), "reduce at root %d: [%d %d; %d %d]", root,
            result[0], result[1], result[2], result[3]);
  }
  memset(result, 0, sizeof result);
  MPI_Allreduce(mine, result, 2, mat_type, op, MPI_COMM_WORLD);
  CHECK(same4(result, expect) && same4(result + 4, expect), "allreduce: [%d %d; %d %d]", result[0], result[1],
        result[2], result[3]);
  memcpy(result, mine, sizeof mine);
  MPI_Allreduce(MPI_IN_PLACE, result, 2, mat_type, op, MPI_COMM_WORLD);
  CHECK(same4(result, expect), "allreduce in place");

  int prefix[4];
  product(0, rank, prefix);
  MPI_Scan(mine, result, 2, mat_type, op, MPI_COMM_WORLD);
  CHECK(same4(result, prefix) && same4(result + 4, prefix), "scan: [%d %d; %d %d]", result[0], result[1], result[2],
        result[3]);
  int sentinel = -12345;
  for (int i = 0; i < 8; ++i)
    result[i] = sentinel;
  MPI_Exscan(mine, result, 2, mat_type, op, MPI_COMM_WORLD);
  if (rank == 0) {
    CHECK(result[0] == sentinel, "exscan touched rank 0's buffer");
  } else {
    product(0, rank - 1, prefix);
    CHECK(same4(result, prefix) && same4(result + 4, prefix), "exscan: [%d %d; %d %d]", result[0], result[1],
          result[2], result[3]);
  }

  /* reduce_scatter_block: each rank gets one matrix of the product. */
  int all[4 * 5];
  for (int i = 0; i < size; ++i)
    matrix_of(rank, all + 4 * i);
  MPI_Reduce_scatter_block(all, result, 1, mat_type, op, MPI_COMM_WORLD);
  CHECK(same4(result, expect), "reduce_scatter_block with a user op");

  /* MPI_Reduce_local: inout = in * inout. */
  int a[4], b[4], ab[4];
  matrix_of(1, a);
  matrix_of(2, b);
  matmul(a, b, ab);
  MPI_Reduce_local(a, b, 1, mat_type, op);
  CHECK(same4(b, ab), "reduce_local order");
  MPI_Op_free(&op);
  CHECK(op == MPI_OP_NULL, "op not reset by MPI_Op_free");
}

static void reductions(int rank, int size)
{
  int send[4], recv[4];
  for (int i = 0; i < 4; ++i)
    send[i] = rank * 10 + i;
  /* sum over r of (10 r + i) = 10 * 10 + 5 i for 5 ranks */
  memset(recv, 0, sizeof recv);
  MPI_Reduce(send, recv, 4, MPI_INT, MPI_SUM, 3, MPI_COMM_WORLD);
  if (rank == 3)
    for (int i = 0; i < 4; ++i)
      CHECK(recv[i] == 100 + 5 * i, "reduce sum[%d] = %d", i, recv[i]);
  if (rank == 2) {
    memcpy(recv, send, sizeof send);
    MPI_Reduce(MPI_IN_PLACE, recv, 4, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD);
    for (int i = 0; i < 4; ++i)
      CHECK(recv[i] == 100 + 5 * i, "reduce in place sum[%d] = %d", i, recv[i]);
  } else {
    MPI_Reduce(send, NULL, 4, MPI_INT, MPI_SUM, 2, MPI_COMM_WORLD);
  }

  double d = rank + 0.5, dmax = 0, dsum = 0;
  MPI_Allreduce(&d, &dmax, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  CHECK(dmax == size - 0.5, "allreduce max %g", dmax);
  dsum = d;
  MPI_Allreduce(MPI_IN_PLACE, &dsum, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  CHECK(dsum == 12.5, "allreduce in place sum %g", dsum);
  long long prod = rank + 1, lprod = 0;
  MPI_Allreduce(&prod, &lprod, 1, MPI_LONG_LONG, MPI_PROD, MPI_COMM_WORLD);
  CHECK(lprod == 120, "allreduce prod %lld", lprod);
  unsigned bits = 1u << rank, bor = 0;
  MPI_Allreduce(&bits, &bor, 1, MPI_UNSIGNED, MPI_BOR, MPI_COMM_WORLD);
  CHECK(bor == 31, "allreduce bor %u", bor);
  int flag = rank != 4, land = -1;
  MPI_Allreduce(&flag, &land, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD);
  CHECK(land == 0, "allreduce land %d", land);

  /* MINLOC / MAXLOC on MPI_DOUBLE_INT and MPI_2INT. */
  struct {
    double value;
    int index;
  } dv = {(rank - 2) * (rank - 2), rank}, dmin;
  MPI_Allreduce(&dv, &dmin, 1, MPI_DOUBLE_INT, MPI_MINLOC, MPI_COMM_WORLD);
  CHECK(dmin.value == 0 && dmin.index == 2, "minloc (%g, %d)", dmin.value, dmin.index);
  int iv[2] = {rank % 2, rank}, imin[2], imax[2];
  MPI_Allreduce(iv, imin, 1, MPI_2INT, MPI_MINLOC, MPI_COMM_WORLD);
  CHECK(imin[0] == 0 && imin[1] == 0, "minloc tie (%d, %d)", imin[0], imin[1]);
  MPI_Allreduce(iv, imax, 1, MPI_2INT, MPI_MAXLOC, MPI_COMM_WORLD);
  CHECK(imax[0] == 1 && imax[1] == 1, "maxloc tie (%d, %d)", imax[0], imax[1]);

  /* A predefined op on a derived datatype: every other double. */
  MPI_Datatype strided;
  MPI_Type_vector(3, 1, 2, MPI_DOUBLE, &strided);
  MPI_Type_commit(&strided);
  double sv[6], rv[6];
  for (int i = 0; i < 6; ++i) {
    sv[i] = rank * 100 + i;
    rv[i] = -1;
  }
  MPI_Allreduce(sv, rv, 1, strided, MPI_SUM, MPI_COMM_WORLD);
  for (int i = 0; i < 6; ++i)
    CHECK(rv[i] == (i % 2 ? -1 : 1000 + 5 * i), "strided allreduce [%d] = %g", i, rv[i]);
  MPI_Type_free(&strided);

  /* scan / exscan with MPI_SUM, also in place */
  int v = rank + 1, s = 0;
  MPI_Scan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(s == (rank + 1) * (rank + 2) / 2, "scan %d", s);
  s = v;
  MPI_Scan(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(s == (rank + 1) * (rank + 2) / 2, "scan in place %d", s);
  s = -7;
  MPI_Exscan(&v, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(rank == 0 ? s == -7 : s == rank * (rank + 1) / 2, "exscan %d", s);
  s = v;
  MPI_Exscan(MPI_IN_PLACE, &s, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  if (rank > 0)
    CHECK(s == rank * (rank + 1) / 2, "exscan in place %d", s);

  /* reduce_scatter(_block): element j of rank r's vector is r * 100 + j. */
  int vec[15], part[5];
  for (int j = 0; j < 15; ++j)
    vec[j] = rank * 100 + j;
  MPI_Reduce_scatter_block(vec, part, 3, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int k = 0; k < 3; ++k)
    CHECK(part[k] == 1000 + 5 * (3 * rank + k), "reduce_scatter_block[%d] = %d", k, part[k]);
  int counts[5] = {1, 2, 3, 4, 5}, first = rank * (rank + 1) / 2;
  MPI_Reduce_scatter(vec, part, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int k = 0; k < counts[rank]; ++k)
    CHECK(part[k] == 1000 + 5 * (first + k), "reduce_scatter[%d] = %d", k, part[k]);
  MPI_Reduce_scatter(MPI_IN_PLACE, vec, counts, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  for (int k = 0; k < counts[rank]; ++k)
    CHECK(vec[k] == 1000 + 5 * (first + k), "reduce_scatter in place[%d] = %d", k, vec[k]);

  /* MPI_Reduce_local with a predefined op */
  int in[3] = {1, 2, 3}, io[3] = {10, 20, 30};
  MPI_Reduce_local(in, io, 3, MPI_INT, MPI_SUM);
  CHECK(io[0] == 11 && io[1] == 22 && io[2] == 33, "reduce_local %d %d %d", io[0], io[1], io[2]);
}

static void data_movement(int rank, int size)
{
  /* bcast from root 2, as ints and as a derived type */
  int b[4];
  for (int i = 0; i < 4; ++i)
    b[i] = rank == 2 ? 100 * i + 7 : -1;
  MPI_Bcast(b, 4, MPI_INT, 2, MPI_COMM_WORLD);
  for (int i = 0; i < 4; ++i)
    CHECK(b[i] == 100 * i + 7, "bcast[%d] = %d", i, b[i]);
  MPI_Datatype every_other;
  MPI_Type_vector(3, 1, 2, MPI_INT, &every_other);
  MPI_Type_commit(&every_other);
  int vb[6];
  for (int i = 0; i < 6; ++i)
    vb[i] = rank == 4 ? i : -1;
  MPI_Bcast(vb, 1, every_other, 4, MPI_COMM_WORLD);
  for (int i = 0; i < 6; ++i)
    CHECK(vb[i] == (i % 2 == 0 || rank == 4 ? i : -1), "derived bcast[%d] = %d", i, vb[i]);

  /* gather at root 1: two ints per rank */
  int g[2] = {rank, rank * rank}, all[10];
  memset(all, -1, sizeof all);
  MPI_Gather(g, 2, MPI_INT, all, 2, MPI_INT, 1, MPI_COMM_WORLD);
  if (rank == 1)
    for (int r = 0; r < size; ++r)
      CHECK(all[2 * r] == r && all[2 * r + 1] == r * r, "gather from %d: %d %d", r, all[2 * r], all[2 * r + 1]);
  /* gather in place at root 0 */
  if (rank == 0) {
    for (int i = 0; i < 10; ++i)
      all[i] = -1;
    all[0] = 0;
    all[1] = 0;
    MPI_Gather(MPI_IN_PLACE, 2, MPI_INT, all, 2, MPI_INT, 0, MPI_COMM_WORLD);
    for (int r = 0; r < size; ++r)
      CHECK(all[2 * r] == r && all[2 * r + 1] == r * r, "gather in place from %d", r);
  } else {
    MPI_Gather(g, 2, MPI_INT, NULL, 0, MPI_INT, 0, MPI_COMM_WORLD);
  }

  /* gatherv: rank r sends r+1 ints (value 10 r + k) at displacement 5 r */
  int gv[5], gall[25], rc[5], displs[5];
  for (int k = 0; k <= rank; ++k)
    gv[k] = 10 * rank + k;
  for (int r = 0; r < size; ++r) {
    rc[r] = r + 1;
    displs[r] = 5 * r;
  }
  for (int i = 0; i < 25; ++i)
    gall[i] = -1;
  MPI_Gatherv(gv, rank + 1, MPI_INT, gall, rc, displs, MPI_INT, 4, MPI_COMM_WORLD);
  if (rank == 4)
    for (int r = 0; r < size; ++r)
      for (int k = 0; k < 5; ++k)
        CHECK(gall[5 * r + k] == (k <= r ? 10 * r + k : -1), "gatherv [%d][%d] = %d", r, k, gall[5 * r + k]);

  /* scatter from root 3; scatter in place at the root */
  int sc[10], mine[2] = {-1, -1};
  for (int i = 0; i < 10; ++i)
    sc[i] = 1000 + i;
  MPI_Scatter(sc, 2, MPI_INT, mine, 2, MPI_INT, 3, MPI_COMM_WORLD);
  CHECK(mine[0] == 1000 + 2 * rank && mine[1] == 1001 + 2 * rank, "scatter %d %d", mine[0], mine[1]);
  if (rank == 0)
    MPI_Scatter(sc, 2, MPI_INT, MPI_IN_PLACE, 2, MPI_INT, 0, MPI_COMM_WORLD);
  else {
    MPI_Scatter(NULL, 0, MPI_INT, mine, 2, MPI_INT, 0, MPI_COMM_WORLD);
    CHECK(mine[0] == 1000 + 2 * rank, "scatter (root 0) %d", mine[0]);
  }
  /* scatterv: rank r gets r+1 ints from displacement 5 r */
  int scv[25], got[5] = {-1, -1, -1, -1, -1};
  for (int i = 0; i < 25; ++i)
    scv[i] = 2000 + i;
  MPI_Scatterv(scv, rc, displs, MPI_INT, got, rank + 1, MPI_INT, 0, MPI_COMM_WORLD);
  for (int k = 0; k <= rank; ++k)
    CHECK(got[k] == 2000 + 5 * rank + k, "scatterv [%d] = %d", k, got[k]);

  /* allgather, in place, allgatherv */
  int ag[10];
  MPI_Allgather(g, 2, MPI_INT, ag, 2, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(ag[2 * r] == r && ag[2 * r + 1] == r * r, "allgather from %d", r);
  for (int i = 0; i < 10; ++i)
    ag[i] = i / 2 == rank ? g[i % 2] : -1;
  MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, ag, 2, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    CHECK(ag[2 * r] == r && ag[2 * r + 1] == r * r, "allgather in place from %d", r);
  for (int i = 0; i < 25; ++i)
    gall[i] = -1;
  MPI_Allgatherv(gv, rank + 1, MPI_INT, gall, rc, displs, MPI_INT, MPI_COMM_WORLD);
  for (int r = 0; r < size; ++r)
    for (int k = 0; k < 5; ++k)
      CHECK(gall[5 * r + k] == (k <= r ? 10 * r + k : -1), "allgatherv [%d][%d] = %d", r, k, gall[5 * r + k]);

  /* alltoall: element j of rank r is 100 r + j; in place too */
  int a2a[5], a2b[5];
  for (int j = 0; j < size; ++j)
    a2a[j] = 100 * rank + j;
  MPI_Alltoall(a2a, 1, MPI_INT, a2b, 1, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < size; ++j)
    CHECK(a2b[j] == 100 * j + rank, "alltoall [%d] = %d", j, a2b[j]);
  MPI_Alltoall(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, a2a, 1, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < size; ++j)
    CHECK(a2a[j] == 100 * j + rank, "alltoall in place [%d] = %d", j, a2a[j]);

  /* alltoallv: rank r sends j + 1 ints (1000 r + 10 j + k) to rank j */
  int sbuf[15], rbuf[25], scount[5], sdispl[5], rcount[5], rdispl[5], off = 0;
  for (int j = 0; j < size; ++j) {
    scount[j] = j + 1;
    sdispl[j] = off;
    for (int k = 0; k <= j; ++k)
      sbuf[off + k] = 1000 * rank + 10 * j + k;
    off += j + 1;
    rcount[j] = rank + 1;
    rdispl[j] = 5 * j;
  }
  for (int i = 0; i < 25; ++i)
    rbuf[i] = -1;
  MPI_Alltoallv(sbuf, scount, sdispl, MPI_INT, rbuf, rcount, rdispl, MPI_INT, MPI_COMM_WORLD);
  for (int j = 0; j < size; ++j)
    for (int k = 0; k < 5; ++k)
      CHECK(rbuf[5 * j + k] == (k <= rank ? 1000 * j + 10 * rank + k : -1), "alltoallv [%d][%d] = %d", j, k,
            rbuf[5 * j + k]);

  /* alltoallw: ints to even ranks, doubles to odd ones (byte displacements) */
  struct {
    int i[5];
    double d[5];
  } ws, wr;
  int wcount[5], wsd[5], wrd[5];
  MPI_Datatype wtypes[5], rtypes[5];
  for (int j = 0; j < size; ++j) {
    ws.i[j] = 10 * rank + j;
    ws.d[j] = 10 * rank + j + 0.25;
    wr.i[j] = -1;
    wr.d[j] = -1;
    wcount[j] = 1;
    wtypes[j] = j % 2 ? MPI_DOUBLE : MPI_INT;
    wsd[j] = j % 2 ? (int)((char*)&ws.d[j] - (char*)&ws) : (int)((char*)&ws.i[j] - (char*)&ws);
    rtypes[j] = rank % 2 ? MPI_DOUBLE : MPI_INT;
    wrd[j] = rank % 2 ? (int)((char*)&wr.d[j] - (char*)&wr) : (int)((char*)&wr.i[j] - (char*)&wr);
  }
  MPI_Alltoallw(&ws, wcount, wsd, wtypes, &wr, wcount, wrd, rtypes, MPI_COMM_WORLD);
  for (int j = 0; j < size; ++j) {
    if (rank % 2)
      CHECK(wr.d[j] == 10 * j + rank + 0.25, "alltoallw double from %d: %g", j, wr.d[j]);
    else
      CHECK(wr.i[j] == 10 * j + rank, "alltoallw int from %d: %d", j, wr.i[j]);
  }
  MPI_Type_free(&every_other);
}

/* Collectives on a split communicator run on its own context. */
static void on_split(int rank)
{
  MPI_Comm half;
  MPI_Comm_split(MPI_COMM_WORLD, rank % 2, -rank, &half);
  int hsize, hrank;
  MPI_Comm_size(half, &hsize);
  MPI_Comm_rank(half, &hrank);
  int sum = 0, one = rank;
  MPI_Allreduce(&one, &sum, 1, MPI_INT, MPI_SUM, half);
  CHECK(sum == (rank % 2 ? 1 + 3 : 0 + 2 + 4), "allreduce on split: %d", sum);
  int root_world = -1;
  if (hrank == 0)
    root_world = rank;
  MPI_Bcast(&root_world, 1, MPI_INT, 0, half);
  CHECK(root_world == (rank % 2 ? 3 : 4), "bcast on split from world rank %d", root_world);
  MPI_Barrier(half);
  MPI_Comm_free(&half);
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 5) {
    if (rank == 0)
      printf("run with 5 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  MPI_Type_contiguous(4, MPI_INT, &mat_type);
  MPI_Type_commit(&mat_type);
  MPI_Barrier(MPI_COMM_WORLD);
  data_movement(rank, size);
  reductions(rank, size);
  noncommutative(rank, size);
  on_split(rank);
  MPI_Type_free(&mat_type);
  finish("coll_all");
  MPI_Finalize();
  return 0;
}
