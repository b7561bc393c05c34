/* The large-count "_c" bindings (MPI-4.1 §19.2) of point-to-point and
 * datatypes: sends and receives with MPI_Count counts, status queries past
 * INT_MAX, types larger than 2 GiB (described, never allocated), their
 * decoding with large counts, pack/unpack and the int versions' limits.
 * Run with 2 ranks. */
#include "check.h"

#include <limits.h>
#include <string.h>

#define N 20000 /* 80 KB of ints: above the 64 KiB eager threshold */

static int ints[N], got[N];

static int error_class(int err)
{
  int cls = MPI_SUCCESS;
  MPI_Error_class(err, &cls);
  return cls;
}

static void point_to_point(int rank)
{
  const int peer = 1 - rank;
  MPI_Status st;
  MPI_Count n = -1;

  /* MPI_Send_c / MPI_Recv_c, eager and rendezvous sizes */
  for (int i = 0; i < N; ++i)
    ints[i] = i * 3 + rank;
  if (rank == 0) {
    MPI_Send_c(ints, (MPI_Count)10, MPI_INT, 1, 1, MPI_COMM_WORLD);
    MPI_Send_c(ints, (MPI_Count)N, MPI_INT, 1, 2, MPI_COMM_WORLD);
  } else {
    memset(got, 0, sizeof got);
    MPI_Recv_c(got, (MPI_Count)N, MPI_INT, 0, 1, MPI_COMM_WORLD, &st);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(n == 10 && got[9] == 27, "Recv_c of 10: count %lld got[9] %d", n, got[9]);
    MPI_Recv_c(got, (MPI_Count)N, MPI_INT, 0, 2, MPI_COMM_WORLD, &st);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(n == N && got[N - 1] == (N - 1) * 3, "Recv_c of N: count %lld last %d", n, got[N - 1]);
    MPI_Get_elements_c(&st, MPI_SHORT, &n);
    CHECK(n == 2 * N, "Get_elements_c in shorts %lld", n);
    MPI_Get_count_c(&st, MPI_DOUBLE, &n);
    CHECK(n == N / 2, "Get_count_c in doubles %lld", n);
  }

  /* MPI_Isendrecv_c: both ranks exchange at once */
  int mine[4] = {rank, rank + 10, rank + 20, rank + 30}, theirs[4] = {-1, -1, -1, -1};
  MPI_Request req;
  MPI_Isendrecv_c(mine, (MPI_Count)4, MPI_INT, peer, 3, theirs, (MPI_Count)4, MPI_INT, peer, 3, MPI_COMM_WORLD, &req);
  MPI_Wait(&req, &st);
  MPI_Get_count_c(&st, MPI_INT, &n);
  CHECK(n == 4 && theirs[0] == peer && theirs[3] == peer + 30, "Isendrecv_c: count %lld theirs %d %d", n, theirs[0],
        theirs[3]);

  /* MPI_Sendrecv_c and MPI_Sendrecv_replace_c */
  double d = rank + 0.5, e = -1;
  MPI_Sendrecv_c(&d, 1, MPI_DOUBLE, peer, 4, &e, 1, MPI_DOUBLE, peer, 4, MPI_COMM_WORLD, &st);
  CHECK(e == peer + 0.5, "Sendrecv_c got %g", e);
  long long rep[3] = {rank, rank * 2, rank * 3};
  MPI_Sendrecv_replace_c(rep, 3, MPI_LONG_LONG, peer, 5, peer, 5, MPI_COMM_WORLD, &st);
  CHECK(rep[0] == peer && rep[2] == peer * 3, "Sendrecv_replace_c got %lld %lld", rep[0], rep[2]);

  /* Nonblocking and persistent modes, matched receive */
  int v = 100 + rank, w = -1;
  if (rank == 0) {
    MPI_Request r[3];
    MPI_Status sts[3];
    MPI_Issend_c(&v, 1, MPI_INT, 1, 6, MPI_COMM_WORLD, &r[0]);
    MPI_Send_init_c(&v, 1, MPI_INT, 1, 7, MPI_COMM_WORLD, &r[1]);
    MPI_Start(&r[1]);
    MPI_Isend_c(ints, 5, MPI_INT, 1, 8, MPI_COMM_WORLD, &r[2]);
    MPI_Waitall(3, r, sts);
    MPI_Request_free(&r[1]);
  } else {
    MPI_Request r[2];
    MPI_Status sts[2];
    MPI_Irecv_c(&w, 1, MPI_INT, 0, 6, MPI_COMM_WORLD, &r[0]);
    int w2 = -1;
    MPI_Recv_init_c(&w2, 1, MPI_INT, 0, 7, MPI_COMM_WORLD, &r[1]);
    MPI_Start(&r[1]);
    MPI_Waitall(2, r, sts);
    MPI_Request_free(&r[1]);
    CHECK(w == 100 && w2 == 100, "Irecv_c/Recv_init_c got %d %d", w, w2);
    MPI_Message msg;
    MPI_Mprobe(0, 8, MPI_COMM_WORLD, &msg, &st);
    MPI_Mrecv_c(got, (MPI_Count)N, MPI_INT, &msg, &st);
    MPI_Get_count_c(&st, MPI_INT, &n);
    CHECK(n == 5 && got[4] == 12, "Mrecv_c: count %lld got[4] %d", n, got[4]);
  }

  /* Buffered mode with a buffer attached by MPI_Buffer_attach_c */
  static char bsend_buffer[4096];
  MPI_Buffer_attach_c(bsend_buffer, (MPI_Count)sizeof bsend_buffer);
  if (rank == 0) {
    MPI_Bsend_c(&v, 1, MPI_INT, 1, 9, MPI_COMM_WORLD);
  } else {
    MPI_Recv_c(&w, 1, MPI_INT, 0, 9, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    CHECK(w == 100, "Bsend_c delivered %d", w);
  }
  void* detached = NULL;
  MPI_Count detached_size = 0;
  MPI_Buffer_detach_c(&detached, &detached_size);
  CHECK(detached == bsend_buffer && detached_size == (MPI_Count)sizeof bsend_buffer, "Buffer_detach_c size %lld",
        detached_size);

  /* Errors: negative count; a count whose byte size overflows 64 bits */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Send_c(ints, (MPI_Count)-1, MPI_INT, peer, 10, MPI_COMM_WORLD);
  CHECK(error_class(err) == MPI_ERR_COUNT, "Send_c with count -1: class %d", error_class(err));
  err = MPI_Send_c(ints, (MPI_Count)1 << 62, MPI_INT, peer, 10, MPI_COMM_WORLD);
  CHECK(error_class(err) == MPI_ERR_COUNT, "Send_c of 2^62 ints: class %d", error_class(err));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void status_beyond_int(void)
{
  /* A status saying 3e9 bytes were received: only the _c queries tell. */
  const MPI_Count big = 3000000000LL;
  MPI_Status st;
  memset(&st, 0, sizeof st);
  MPI_Status_set_elements_c(&st, MPI_CHAR, big);
  MPI_Count n = 0;
  int small = 0;
  MPI_Get_count_c(&st, MPI_CHAR, &n);
  CHECK(n == big, "Get_count_c %lld", n);
  MPI_Get_count(&st, MPI_CHAR, &small);
  CHECK(small == MPI_UNDEFINED, "Get_count past INT_MAX gives %d", small);
  MPI_Get_elements_c(&st, MPI_CHAR, &n);
  CHECK(n == big, "Get_elements_c %lld", n);
  MPI_Get_elements(&st, MPI_CHAR, &small);
  CHECK(small == MPI_UNDEFINED, "Get_elements past INT_MAX gives %d", small);
  MPI_Get_count_c(&st, MPI_INT, &n);
  CHECK(n == big / 4, "Get_count_c in ints %lld", n);
}

static void large_types(void)
{
  /* Types of more than 2 GiB, as in MPICH's type_large test */
  const MPI_Count big = 5LL * 1024 * 1024 * 1024; /* 5 GiB */
  MPI_Datatype contig, hidx, iblk;
  MPI_Type_contiguous_c(big, MPI_CHAR, &contig);
  MPI_Count blens[3] = {1, 2, big - 3}, displs[3] = {0, 1, 3};
  MPI_Type_create_hindexed_c(3, blens, displs, MPI_CHAR, &hidx);
  const MPI_Count blk = big / 16; /* 4 blocks of big/16 ints, one after the other: big bytes */
  MPI_Count blk_displs[4] = {0, blk, 2 * blk, 3 * blk};
  MPI_Type_create_indexed_block_c(4, blk, blk_displs, MPI_INT, &iblk);
  MPI_Datatype types[3] = {contig, hidx, iblk};
  for (int i = 0; i < 3; ++i) {
    MPI_Type_commit(&types[i]);
    MPI_Count size = 0, lb = -1, extent = 0;
    MPI_Type_size_c(types[i], &size);
    CHECK(size == big, "type %d: Type_size_c %lld", i, size);
    int small = 0;
    MPI_Type_size(types[i], &small);
    CHECK(small == MPI_UNDEFINED, "type %d: Type_size past INT_MAX gives %d", i, small);
    MPI_Type_get_true_extent_c(types[i], &lb, &extent);
    CHECK(lb == 0 && extent == big, "type %d: true extent %lld %lld", i, lb, extent);
    MPI_Type_get_extent_c(types[i], &lb, &extent);
    CHECK(lb == 0 && extent == big, "type %d: extent %lld %lld", i, lb, extent);
    MPI_Count packed = 0;
    MPI_Pack_size_c(2, types[i], MPI_COMM_WORLD, &packed);
    CHECK(packed == 2 * big, "type %d: Pack_size_c %lld", i, packed);
    MPI_Pack_size(1, types[i], MPI_COMM_WORLD, &small);
    CHECK(small == MPI_UNDEFINED, "type %d: Pack_size past INT_MAX gives %d", i, small);
  }

  /* Decoding: the count arguments come back as large counts */
  MPI_Count ni = -1, na = -1, nc = -1, nd = -1;
  int combiner = 0;
  MPI_Type_get_envelope_c(hidx, &ni, &na, &nc, &nd, &combiner);
  CHECK(combiner == MPI_COMBINER_HINDEXED && ni == 0 && na == 0 && nc == 7 && nd == 1,
        "hindexed_c envelope: %d %lld %lld %lld %lld", combiner, ni, na, nc, nd);
  MPI_Count c[7];
  MPI_Datatype d[1];
  MPI_Type_get_contents_c(hidx, 0, 0, 7, 1, NULL, NULL, c, d);
  CHECK(c[0] == 3 && c[1] == 1 && c[3] == big - 3 && c[4] == 0 && c[6] == 3 && d[0] == MPI_CHAR,
        "hindexed_c contents %lld %lld %lld %lld %lld", c[0], c[1], c[3], c[4], c[6]);
  MPI_Type_get_envelope_c(iblk, &ni, &na, &nc, &nd, &combiner);
  CHECK(combiner == MPI_COMBINER_INDEXED_BLOCK && ni == 0 && na == 0 && nc == 6 && nd == 1,
        "indexed_block_c envelope: %d %lld %lld %lld %lld", combiner, ni, na, nc, nd);
  /* a type built with int counts decodes without large counts */
  MPI_Datatype vec;
  MPI_Type_vector(2, 3, 4, MPI_INT, &vec);
  MPI_Type_get_envelope_c(vec, &ni, &na, &nc, &nd, &combiner);
  CHECK(combiner == MPI_COMBINER_VECTOR && ni == 3 && na == 0 && nc == 0 && nd == 1,
        "vector envelope_c: %lld %lld %lld %lld", ni, na, nc, nd);
  /* subarray_c: ndims and order stay integers */
  MPI_Count sizes[2] = {4, 5}, subsizes[2] = {2, 3}, starts[2] = {1, 1};
  MPI_Datatype sub;
  MPI_Type_create_subarray_c(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_DOUBLE, &sub);
  MPI_Type_get_envelope_c(sub, &ni, &na, &nc, &nd, &combiner);
  CHECK(combiner == MPI_COMBINER_SUBARRAY && ni == 2 && na == 0 && nc == 6 && nd == 1,
        "subarray_c envelope: %lld %lld %lld %lld", ni, na, nc, nd);
  int si[2];
  MPI_Count sc[6];
  MPI_Type_get_contents_c(sub, 2, 0, 6, 1, si, NULL, sc, d);
  CHECK(si[0] == 2 && si[1] == MPI_ORDER_FORTRAN && sc[0] == 4 && sc[3] == 3 && sc[5] == 1,
        "subarray_c contents %d %d %lld %lld %lld", si[0], si[1], sc[0], sc[3], sc[5]);
  /* the int decoding procedures refuse types with large counts */
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int ini, ina, ind;
  int err = MPI_Type_get_envelope(hidx, &ini, &ina, &ind, &combiner);
  CHECK(error_class(err) == MPI_ERR_TYPE, "Type_get_envelope of a _c type: class %d", error_class(err));
  err = MPI_Type_contiguous_c(-1, MPI_INT, &vec);
  CHECK(error_class(err) == MPI_ERR_COUNT, "Type_contiguous_c(-1): class %d", error_class(err));
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  MPI_Type_free(&vec);
  MPI_Type_free(&sub);
  for (int i = 0; i < 3; ++i)
    MPI_Type_free(&types[i]);
}

static void pack_round_trip(void)
{
  /* Pack_c / Unpack_c with a resized vector built by the _c constructors */
  MPI_Datatype vec, res;
  MPI_Type_vector_c(3, 2, 4, MPI_INT, &vec);
  MPI_Type_create_resized_c(vec, 0, 12 * (MPI_Count)sizeof(int), &res);
  MPI_Type_commit(&res);
  int in[24], out[24];
  for (int i = 0; i < 24; ++i) {
    in[i] = i;
    out[i] = -1;
  }
  char packed[256];
  MPI_Count position = 0, size = 0;
  MPI_Pack_size_c(2, res, MPI_COMM_WORLD, &size);
  CHECK(size == 12 * (MPI_Count)sizeof(int), "Pack_size_c %lld", size);
  MPI_Pack_c(in, 2, res, packed, (MPI_Count)sizeof packed, &position, MPI_COMM_WORLD);
  CHECK(position == size, "Pack_c position %lld", position);
  MPI_Count upos = 0;
  MPI_Unpack_c(packed, position, &upos, out, 2, res, MPI_COMM_WORLD);
  CHECK(upos == position, "Unpack_c position %lld", upos);
  /* items at 0 and 12 ints; blocks of 2 every 4 ints */
  for (int i = 0; i < 24; ++i) {
    int in_type = (i % 12) % 4 < 2 && (i % 12) < 10;
    CHECK(out[i] == (in_type ? in[i] : -1), "out[%d] = %d", i, out[i]);
  }
  /* external32 */
  MPI_Count ext_size = 0, epos = 0, eupos = 0;
  MPI_Pack_external_size_c("external32", 2, res, &ext_size);
  CHECK(ext_size == 48, "Pack_external_size_c %lld", ext_size);
  MPI_Pack_external_c("external32", in, 2, res, packed, (MPI_Count)sizeof packed, &epos);
  for (int i = 0; i < 24; ++i)
    out[i] = -1;
  MPI_Unpack_external_c("external32", packed, epos, &eupos, out, 2, res);
  CHECK(epos == 48 && eupos == 48 && out[13] == 13 && out[2] == -1, "external32 round trip %lld %lld %d %d", epos,
        eupos, out[13], out[2]);
  MPI_Type_free(&vec);
  MPI_Type_free(&res);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  int rank;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  point_to_point(rank);
  status_beyond_int();
  large_types();
  pack_round_trip();
  finish("large_count");
  MPI_Finalize();
  return 0;
}
