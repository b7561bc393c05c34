/* Datatype decoding and bookkeeping (MPI-4.1 §5.1.13, §5.1.9, §7.7.4,
 * §7.8, §19.1.9): get_envelope/get_contents round trips for every
 * combiner, MPI_Type_dup, commit and free rules, names, attributes and
 * keyvals with the predefined callbacks, MPI_Type_match_size and the _x
 * queries. Run with 2 ranks (names of predefined types are per process). */
#include "check.h"

#include <stdlib.h>
#include <string.h>

/* Same size, extent and packed bytes of a sample buffer. */
static int same_type(MPI_Datatype a, MPI_Datatype b)
{
  int sa, sb;
  MPI_Aint la, ea, lb, eb;
  MPI_Type_size(a, &sa);
  MPI_Type_size(b, &sb);
  MPI_Type_get_extent(a, &la, &ea);
  MPI_Type_get_extent(b, &lb, &eb);
  if (sa != sb || la != lb || ea != eb)
    return 0;
  static int sample[4096];
  for (int i = 0; i < 4096; ++i)
    sample[i] = i * 7 + 1;
  char pa[4096], pb[4096];
  int qa = 0, qb = 0;
  MPI_Pack(sample + 1024, 2, a, pa, sizeof pa, &qa, MPI_COMM_WORLD);
  MPI_Pack(sample + 1024, 2, b, pb, sizeof pb, &qb, MPI_COMM_WORLD);
  return qa == qb && memcmp(pa, pb, (size_t)qa) == 0;
}

typedef struct {
  int ni, na, nd, combiner;
  int ints[64];
  MPI_Aint addrs[16];
  MPI_Datatype types[16];
} Decoded;

static void decode(MPI_Datatype t, Decoded* d)
{
  MPI_Type_get_envelope(t, &d->ni, &d->na, &d->nd, &d->combiner);
  MPI_Type_get_contents(t, 64, 16, 16, d->ints, d->addrs, d->types);
}

static void free_derived(Decoded* d)
{
  for (int i = 0; i < d->nd; ++i) {
    int ni, na, nd, c;
    MPI_Type_get_envelope(d->types[i], &ni, &na, &nd, &c);
    if (c != MPI_COMBINER_NAMED)
      MPI_Type_free(&d->types[i]);
  }
}

/* Builds a type from its decoded contents (the inverse of decode). */
static MPI_Datatype rebuild(const Decoded* d)
{
  MPI_Datatype t = MPI_DATATYPE_NULL;
  const int* i = d->ints;
  switch (d->combiner) {
  case MPI_COMBINER_CONTIGUOUS:
    MPI_Type_contiguous(i[0], d->types[0], &t);
    break;
  case MPI_COMBINER_VECTOR:
    MPI_Type_vector(i[0], i[1], i[2], d->types[0], &t);
    break;
  case MPI_COMBINER_HVECTOR:
    MPI_Type_create_hvector(i[0], i[1], d->addrs[0], d->types[0], &t);
    break;
  case MPI_COMBINER_INDEXED:
    MPI_Type_indexed(i[0], i + 1, i + 1 + i[0], d->types[0], &t);
    break;
  case MPI_COMBINER_HINDEXED:
    MPI_Type_create_hindexed(i[0], i + 1, d->addrs, d->types[0], &t);
    break;
  case MPI_COMBINER_INDEXED_BLOCK:
    MPI_Type_create_indexed_block(i[0], i[1], i + 2, d->types[0], &t);
    break;
  case MPI_COMBINER_HINDEXED_BLOCK:
    MPI_Type_create_hindexed_block(i[0], i[1], d->addrs, d->types[0], &t);
    break;
  case MPI_COMBINER_STRUCT:
    MPI_Type_create_struct(i[0], i + 1, d->addrs, d->types, &t);
    break;
  case MPI_COMBINER_SUBARRAY:
    MPI_Type_create_subarray(i[0], i + 1, i + 1 + i[0], i + 1 + 2 * i[0], i[1 + 3 * i[0]], d->types[0], &t);
    break;
  case MPI_COMBINER_DARRAY: {
    int n = i[2];
    MPI_Type_create_darray(i[0], i[1], n, i + 3, i + 3 + n, i + 3 + 2 * n, i + 3 + 3 * n, i[3 + 4 * n], d->types[0],
                           &t);
    break;
  }
  case MPI_COMBINER_RESIZED:
    MPI_Type_create_resized(d->types[0], d->addrs[0], d->addrs[1], &t);
    break;
  case MPI_COMBINER_DUP:
    MPI_Type_dup(d->types[0], &t);
    break;
  }
  MPI_Type_commit(&t);
  return t;
}

static void check_round_trip(MPI_Datatype t, int combiner, int ni, int na, int nd, const char* what)
{
  MPI_Type_commit(&t);
  Decoded d;
  decode(t, &d);
  CHECK(d.combiner == combiner && d.ni == ni && d.na == na && d.nd == nd, "%s: envelope %d %d %d %d", what,
        d.combiner, d.ni, d.na, d.nd);
  MPI_Datatype r = rebuild(&d);
  CHECK(r != MPI_DATATYPE_NULL && same_type(t, r), "%s: rebuilt type differs", what);
  free_derived(&d);
  MPI_Type_free(&r);
  MPI_Type_free(&t);
}

static void round_trips(void)
{
  MPI_Datatype t, inner;
  int bl[3] = {2, 1, 3}, di[3] = {0, 5, 9};
  MPI_Aint ad[3] = {0, 24, 40};
  MPI_Datatype ty[3] = {MPI_INT, MPI_DOUBLE, MPI_CHAR};

  MPI_Type_contiguous(3, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_CONTIGUOUS, 1, 0, 1, "contiguous");
  MPI_Type_vector(3, 2, 4, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_VECTOR, 3, 0, 1, "vector");
  MPI_Type_create_hvector(3, 2, 20, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_HVECTOR, 2, 1, 1, "hvector");
  MPI_Type_indexed(3, bl, di, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_INDEXED, 7, 0, 1, "indexed");
  MPI_Type_create_hindexed(3, bl, ad, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_HINDEXED, 4, 3, 1, "hindexed");
  MPI_Type_create_indexed_block(3, 2, di, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_INDEXED_BLOCK, 5, 0, 1, "indexed_block");
  MPI_Type_create_hindexed_block(3, 2, ad, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_HINDEXED_BLOCK, 2, 3, 1, "hindexed_block");
  MPI_Type_create_struct(3, bl, ad, ty, &t);
  check_round_trip(t, MPI_COMBINER_STRUCT, 4, 3, 3, "struct");
  int sizes[2] = {6, 8}, subsizes[2] = {2, 3}, starts[2] = {1, 4};
  MPI_Type_create_subarray(2, sizes, subsizes, starts, MPI_ORDER_FORTRAN, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_SUBARRAY, 8, 0, 1, "subarray");
  int gsizes[2] = {8, 9}, distribs[2] = {MPI_DISTRIBUTE_CYCLIC, MPI_DISTRIBUTE_BLOCK};
  int dargs[2] = {2, MPI_DISTRIBUTE_DFLT_DARG}, psizes[2] = {2, 3};
  MPI_Type_create_darray(6, 4, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_C, MPI_INT, &t);
  check_round_trip(t, MPI_COMBINER_DARRAY, 12, 0, 1, "darray");
  MPI_Type_create_resized(MPI_INT, -4, 12, &t);
  check_round_trip(t, MPI_COMBINER_RESIZED, 0, 2, 1, "resized");

  /* mpi.h constants come back from get_contents */
  MPI_Type_create_darray(6, 4, 2, gsizes, distribs, dargs, psizes, MPI_ORDER_FORTRAN, MPI_INT, &t);
  Decoded d;
  decode(t, &d);
  CHECK(d.ints[5] == MPI_DISTRIBUTE_CYCLIC && d.ints[6] == MPI_DISTRIBUTE_BLOCK && d.ints[7] == 2 &&
            d.ints[8] == MPI_DISTRIBUTE_DFLT_DARG && d.ints[11] == MPI_ORDER_FORTRAN && d.types[0] == MPI_INT,
        "darray contents %d %d %d %d %d", d.ints[5], d.ints[6], d.ints[7], d.ints[8], d.ints[11]);
  MPI_Type_free(&t);

  /* nested: the constituent comes back as a new, equivalent handle */
  MPI_Type_contiguous(2, MPI_SHORT, &inner);
  MPI_Type_commit(&inner);
  MPI_Type_vector(2, 1, 3, inner, &t);
  decode(t, &d);
  CHECK(d.combiner == MPI_COMBINER_VECTOR && d.types[0] != inner && d.types[0] != MPI_DATATYPE_NULL,
        "nested constituent handle %x (inner %x)", d.types[0], inner);
  CHECK(same_type(d.types[0], inner), "nested constituent differs");
  MPI_Type_free(&d.types[0]);
  int size;
  MPI_Type_size(inner, &size);
  CHECK(size == 4, "inner still valid after freeing its decoded copy: size %d", size);
  MPI_Type_free(&inner);
  MPI_Type_free(&t);

  /* named types: envelope only; get_contents is an error */
  int ni, na, nd, c;
  MPI_Type_get_envelope(MPI_FLOAT, &ni, &na, &nd, &c);
  CHECK(c == MPI_COMBINER_NAMED && ni == 0 && na == 0 && nd == 0, "MPI_FLOAT envelope %d", c);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int err = MPI_Type_get_contents(MPI_FLOAT, 0, 0, 0, NULL, NULL, NULL), cls;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE, "get_contents of MPI_FLOAT: class %d", cls);
  MPI_Type_vector(3, 2, 4, MPI_INT, &t);
  err = MPI_Type_get_contents(t, 2, 0, 1, d.ints, d.addrs, d.types);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG, "get_contents with max_integers too small: class %d", cls);
  MPI_Type_free(&t);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
}

static void dup_commit_free(void)
{
  MPI_Datatype t, d1, d2;
  Decoded d;
  MPI_Type_dup(MPI_INT, &d1);
  decode(d1, &d);
  CHECK(d.combiner == MPI_COMBINER_DUP && d.nd == 1 && d.types[0] == MPI_INT, "dup of MPI_INT decodes to %d %x",
        d.combiner, d.types[0]);
  /* dup of a predefined type is committed: usable at once */
  int x = 5, y = 0;
  MPI_Sendrecv(&x, 1, d1, 0, 0, &y, 1, d1, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  CHECK(y == 5, "sendrecv with dup of MPI_INT: %d", y);
  MPI_Type_free(&d1);

  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_RETURN);
  MPI_Type_dup(t, &d1); /* of an uncommitted type: not committed */
  int a[2] = {1, 2}, b[2] = {0, 0}, cls;
  int err = MPI_Sendrecv(a, 1, d1, 0, 0, b, 1, d1, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE, "send with an uncommitted dup: class %d", cls);
  MPI_Type_commit(&t);
  MPI_Type_dup(t, &d2); /* of a committed type: committed */
  err = MPI_Sendrecv(a, 1, d2, 0, 0, b, 1, d2, 0, 0, MPI_COMM_SELF, MPI_STATUS_IGNORE);
  CHECK(err == MPI_SUCCESS && b[0] == 1 && b[1] == 2, "send with a committed dup: err %d, %d %d", err, b[0], b[1]);
  MPI_Type_free(&d1);
  MPI_Type_free(&d2);

  /* free rules */
  MPI_Datatype pre = MPI_INT;
  err = MPI_Type_free(&pre);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE && pre == MPI_INT, "free of MPI_INT: class %d", cls);
  MPI_Datatype copy = t;
  MPI_Type_free(&t);
  CHECK(t == MPI_DATATYPE_NULL, "free did not set MPI_DATATYPE_NULL");
  err = MPI_Type_free(&t);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE, "free of MPI_DATATYPE_NULL: class %d", cls);
  int size;
  err = MPI_Type_size(copy, &size);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE, "size of a freed handle: class %d", cls);
  err = MPI_Type_commit(&copy);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE, "commit of a freed handle: class %d", cls);
  err = MPI_Type_contiguous(-1, MPI_INT, &t);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_COUNT, "negative count: class %d", cls);
  err = MPI_Type_vector(2, 1, 1, MPI_DATATYPE_NULL, &t);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_TYPE, "MPI_DATATYPE_NULL oldtype: class %d", cls);
  int sizes[1] = {4}, subsizes[1] = {5}, starts[1] = {0};
  err = MPI_Type_create_subarray(1, sizes, subsizes, starts, MPI_ORDER_C, MPI_INT, &t);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG, "subarray subsize > size: class %d", cls);
  err = MPI_Type_create_subarray(1, sizes, sizes, starts, 12345, MPI_INT, &t);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG, "subarray with a bad order: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Comm_set_errhandler(MPI_COMM_SELF, MPI_ERRORS_ARE_FATAL);
}

static void names(int rank)
{
  char name[MPI_MAX_OBJECT_NAME];
  int len;
  MPI_Type_get_name(MPI_INT, name, &len);
  CHECK(strcmp(name, "MPI_INT") == 0 && len == 7, "name of MPI_INT: %s", name);
  MPI_Type_get_name(MPI_DOUBLE_INT, name, &len);
  CHECK(strcmp(name, "MPI_DOUBLE_INT") == 0, "name of MPI_DOUBLE_INT: %s", name);
  MPI_Type_get_name(MPI_UNSIGNED_LONG_LONG, name, &len);
  CHECK(strcmp(name, "MPI_UNSIGNED_LONG_LONG") == 0, "name: %s", name);
  MPI_Datatype t;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_get_name(t, name, &len);
  CHECK(len == 0 && name[0] == 0, "name of a new type: '%s'", name);
  MPI_Type_set_name(t, "pair of ints");
  MPI_Type_get_name(t, name, &len);
  CHECK(strcmp(name, "pair of ints") == 0 && len == 12, "set name: %s", name);
  char longname[300];
  memset(longname, 'x', sizeof longname);
  longname[299] = 0;
  MPI_Type_set_name(t, longname);
  MPI_Type_get_name(t, name, &len);
  CHECK(len == MPI_MAX_OBJECT_NAME - 1, "long name truncated to %d", len);
  MPI_Type_free(&t);
  /* renaming a predefined type is seen by this process only */
  if (rank == 0)
    MPI_Type_set_name(MPI_INT, "int");
  MPI_Barrier(MPI_COMM_WORLD);
  MPI_Type_get_name(MPI_INT, name, &len);
  CHECK(strcmp(name, rank == 0 ? "int" : "MPI_INT") == 0, "rank %d sees MPI_INT named %s", rank, name);
}

static int deletes = 0;
static void* last_deleted = NULL;

static int count_delete(MPI_Datatype t, int keyval, void* value, void* extra)
{
  (void)t;
  (void)keyval;
  ++deletes;
  last_deleted = value;
  ++*(int*)extra;
  return MPI_SUCCESS;
}

static int failing_copy(MPI_Datatype t, int k, void* e, void* in, void* out, int* flag)
{
  (void)t, (void)k, (void)e, (void)in, (void)out;
  *flag = 0;
  return MPI_ERR_OTHER;
}

static void attributes(void)
{
  int extra = 0, kdup, knull, kfail, flag;
  void* v;
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, count_delete, &kdup, &extra);
  MPI_Type_create_keyval(MPI_TYPE_NULL_COPY_FN, MPI_TYPE_NULL_DELETE_FN, &knull, NULL);
  MPI_Type_create_keyval(failing_copy, MPI_TYPE_NULL_DELETE_FN, &kfail, NULL);
  CHECK(kdup != knull && kdup != MPI_KEYVAL_INVALID, "keyvals %d %d", kdup, knull);

  MPI_Datatype t, d;
  MPI_Type_contiguous(3, MPI_INT, &t);
  static int a1, a2, a3;
  MPI_Type_get_attr(t, kdup, &v, &flag);
  CHECK(!flag, "attribute present before set");
  MPI_Type_set_attr(t, kdup, &a1);
  MPI_Type_set_attr(t, knull, &a3);
  MPI_Type_get_attr(t, kdup, &v, &flag);
  CHECK(flag && v == &a1, "get_attr: flag %d", flag);
  MPI_Type_set_attr(t, kdup, &a2); /* replaces: deletes a1 */
  CHECK(deletes == 1 && last_deleted == &a1, "replace: deletes %d", deletes);
  MPI_Type_dup(t, &d);
  MPI_Type_get_attr(d, kdup, &v, &flag);
  CHECK(flag && v == &a2, "MPI_TYPE_DUP_FN copy: flag %d", flag);
  MPI_Type_get_attr(d, knull, &v, &flag);
  CHECK(!flag, "MPI_TYPE_NULL_COPY_FN copied the attribute");
  MPI_Type_free(&t);
  CHECK(deletes == 2 && last_deleted == &a2 && extra == 2, "free: deletes %d extra %d", deletes, extra);
  MPI_Type_delete_attr(d, kdup);
  CHECK(deletes == 3, "delete_attr: deletes %d", deletes);
  MPI_Type_get_attr(d, kdup, &v, &flag);
  CHECK(!flag, "attribute present after delete_attr");

  /* attributes on a predefined type; a failing copy callback fails MPI_Type_dup */
  MPI_Type_set_attr(MPI_DOUBLE, kdup, &a1);
  MPI_Type_get_attr(MPI_DOUBLE, kdup, &v, &flag);
  CHECK(flag && v == &a1, "attribute on MPI_DOUBLE");
  MPI_Type_delete_attr(MPI_DOUBLE, kdup);
  CHECK(deletes == 4 && last_deleted == &a1, "delete_attr on MPI_DOUBLE: deletes %d", deletes);
  MPI_Type_set_attr(d, kfail, &a3);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  MPI_Datatype d2 = MPI_DATATYPE_NULL;
  int err = MPI_Type_dup(d, &d2), cls;
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_OTHER && d2 == MPI_DATATYPE_NULL, "dup with a failing copy: class %d", cls);

  /* a freed keyval: unusable, but its delete callback still runs */
  MPI_Type_set_attr(d, kdup, &a3);
  int kcopy = kdup;
  MPI_Type_free_keyval(&kdup);
  CHECK(kdup == MPI_KEYVAL_INVALID, "free_keyval did not set MPI_KEYVAL_INVALID");
  err = MPI_Type_get_attr(d, kcopy, &v, &flag);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "get_attr with a freed keyval: class %d", cls);
  err = MPI_Type_set_attr(d, 1 /* MPI_TAG_UB */, &a1);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_KEYVAL, "set_attr with a communicator keyval: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
  MPI_Type_free(&d);
  CHECK(deletes == 5 && last_deleted == &a3, "delete callback of a freed keyval: deletes %d", deletes);
  MPI_Type_free_keyval(&knull);
  MPI_Type_free_keyval(&kfail);

  /* the predefined callbacks of the other object kinds */
  void* out = NULL;
  flag = -1;
  CHECK(MPI_COMM_DUP_FN(MPI_COMM_WORLD, 7, NULL, &a1, &out, &flag) == MPI_SUCCESS && flag == 1 && out == &a1,
        "MPI_COMM_DUP_FN");
  CHECK(MPI_WIN_NULL_COPY_FN(MPI_WIN_NULL, 7, NULL, &a1, &out, &flag) == MPI_SUCCESS && flag == 0,
        "MPI_WIN_NULL_COPY_FN");
  out = NULL;
  CHECK(MPI_DUP_FN(MPI_COMM_WORLD, 7, NULL, &a2, &out, &flag) == MPI_SUCCESS && flag == 1 && out == &a2,
        "MPI_DUP_FN");
  CHECK(MPI_NULL_COPY_FN(MPI_COMM_WORLD, 7, NULL, &a2, &out, &flag) == MPI_SUCCESS && flag == 0, "MPI_NULL_COPY_FN");
  CHECK(MPI_COMM_NULL_DELETE_FN(MPI_COMM_WORLD, 7, &a1, NULL) == MPI_SUCCESS &&
            MPI_WIN_NULL_DELETE_FN(MPI_WIN_NULL, 7, &a1, NULL) == MPI_SUCCESS &&
            MPI_NULL_DELETE_FN(MPI_COMM_WORLD, 7, &a1, NULL) == MPI_SUCCESS,
        "NULL_DELETE_FNs");
  CHECK(MPI_WIN_DUP_FN(MPI_WIN_NULL, 7, NULL, &a3, &out, &flag) == MPI_SUCCESS && flag == 1 && out == &a3,
        "MPI_WIN_DUP_FN");
}

static void queries(void)
{
  MPI_Datatype t;
  int size;
  MPI_Type_match_size(MPI_TYPECLASS_REAL, sizeof(double), &t);
  MPI_Type_size(t, &size);
  CHECK(size == sizeof(double), "match_size real 8: size %d", size);
  MPI_Type_match_size(MPI_TYPECLASS_INTEGER, sizeof(short), &t);
  MPI_Type_size(t, &size);
  CHECK(size == sizeof(short), "match_size integer 2: size %d", size);
  MPI_Type_match_size(MPI_TYPECLASS_COMPLEX, 16, &t);
  CHECK(t == MPI_COMPLEX16, "match_size complex 16");
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  int cls, err = MPI_Type_match_size(MPI_TYPECLASS_INTEGER, 3, &t);
  MPI_Error_class(err, &cls);
  CHECK(cls == MPI_ERR_ARG, "match_size integer 3: class %d", cls);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);

  MPI_Type_get_value_index(MPI_DOUBLE, MPI_INT, &t);
  CHECK(t == MPI_DOUBLE_INT, "value_index double,int");
  MPI_Type_get_value_index(MPI_CHAR, MPI_INT, &t);
  CHECK(t == MPI_DATATYPE_NULL, "value_index char,int");

  MPI_Datatype big;
  MPI_Type_contiguous(1 << 20, MPI_DOUBLE, &t);
  MPI_Type_contiguous(1 << 10, t, &big); /* 8 GiB */
  MPI_Count sx, lbx, ex;
  MPI_Type_size_x(big, &sx);
  MPI_Type_size(big, &size);
  CHECK(sx == 8LL << 30 && size == MPI_UNDEFINED, "size_x %lld size %d", sx, size);
  MPI_Type_get_extent_x(big, &lbx, &ex);
  CHECK(lbx == 0 && ex == 8LL << 30, "extent_x %lld %lld", lbx, ex);
  MPI_Type_free(&big);
  MPI_Type_free(&t);
  MPI_Type_create_resized(MPI_INT, -8, 32, &t);
  MPI_Type_get_extent_x(t, &lbx, &ex);
  MPI_Count tlb, tex;
  MPI_Type_get_true_extent_x(t, &tlb, &tex);
  CHECK(lbx == -8 && ex == 32 && tlb == 0 && tex == 4, "resized extents %lld %lld %lld %lld", lbx, ex, tlb, tex);
  MPI_Type_free(&t);
}

int main(int argc, char** argv)
{
  int rank;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  round_trips();
  dup_commit_free();
  names(rank);
  attributes();
  queries();
  finish("datatype_decode");
  MPI_Finalize();
  return 0;
}
