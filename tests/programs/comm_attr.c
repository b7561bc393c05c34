/* Attribute caching, error handlers and info objects on communicators:
 * copy callbacks run on MPI_Comm_dup (the copy holds what the callback
 * returned), delete callbacks on overwrite, MPI_Comm_delete_attr and
 * MPI_Comm_free (also for a freed keyval), the deprecated MPI-1 names, the
 * predefined attributes, a user error handler inherited by a dup and called
 * with the communicator and the error, and MPI_Info. */
#include "check.h"

#include <stdint.h>
#include <string.h>

static int copies = 0;
static int deletes = 0;
static intptr_t last_deleted = 0;

/* Copies value + 1 (values are integers stored in the pointer). */
static int copy_plus_one(MPI_Comm oldcomm, int keyval, void* extra, void* in, void* out, int* flag)
{
  (void)oldcomm;
  (void)keyval;
  CHECK(extra == (void*)&copies, "extra_state %p", extra);
  ++copies;
  *(void**)out = (void*)((intptr_t)in + 1);
  *flag = 1;
  return MPI_SUCCESS;
}

static int no_copy(MPI_Comm oldcomm, int keyval, void* extra, void* in, void* out, int* flag)
{
  (void)oldcomm;
  (void)keyval;
  (void)extra;
  (void)in;
  (void)out;
  *flag = 0;
  return MPI_SUCCESS;
}

static int count_delete(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm;
  (void)keyval;
  (void)extra;
  ++deletes;
  last_deleted = (intptr_t)value;
  return MPI_SUCCESS;
}

static void attributes(int size)
{
  int kv, kv_none;
  MPI_Comm_create_keyval(copy_plus_one, count_delete, &kv, &copies);
  MPI_Comm_create_keyval(no_copy, count_delete, &kv_none, NULL);
  CHECK(kv >= 64 && kv_none >= 64 && kv != kv_none, "keyvals %d %d", kv, kv_none);

  MPI_Comm a;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_set_attr(a, kv, (void*)(intptr_t)10);
  MPI_Comm_set_attr(a, kv_none, (void*)(intptr_t)99);
  /* overwrite runs the delete callback on the old value */
  MPI_Comm_set_attr(a, kv, (void*)(intptr_t)20);
  CHECK(deletes == 1 && last_deleted == 10, "overwrite: deletes %d last %ld", deletes, (long)last_deleted);

  MPI_Comm b;
  MPI_Comm_dup(a, &b);
  CHECK(copies == 1, "copy callback ran %d times", copies);
  void* v = NULL;
  int flag = 0;
  MPI_Comm_get_attr(b, kv, &v, &flag);
  CHECK(flag && (intptr_t)v == 21, "copied attribute flag %d value %ld", flag, (long)(intptr_t)v);
  MPI_Comm_get_attr(b, kv_none, &v, &flag);
  CHECK(!flag, "attribute with a no-copy callback was copied");
  MPI_Comm_get_attr(a, kv, &v, &flag);
  CHECK(flag && (intptr_t)v == 20, "original attribute %ld", (long)(intptr_t)v);

  /* delete_attr runs the callback; the attribute is gone */
  MPI_Comm_delete_attr(a, kv_none);
  CHECK(deletes == 2 && last_deleted == 99, "delete_attr: deletes %d last %ld", deletes, (long)last_deleted);
  MPI_Comm_get_attr(a, kv_none, &v, &flag);
  CHECK(!flag, "deleted attribute still there");

  /* a freed keyval: unusable, but its delete callback still runs at free */
  MPI_Comm_free_keyval(&kv);
  CHECK(kv == MPI_KEYVAL_INVALID, "free_keyval did not reset the keyval");
  MPI_Comm_free(&b);
  CHECK(deletes == 3 && last_deleted == 21, "free dup: deletes %d last %ld", deletes, (long)last_deleted);
  MPI_Comm_free(&a);
  CHECK(deletes == 4 && last_deleted == 20, "free: deletes %d last %ld", deletes, (long)last_deleted);
  MPI_Comm_free_keyval(&kv_none);

  /* deprecated MPI-1 names */
  int old;
  MPI_Keyval_create(copy_plus_one, count_delete, &old, &copies);
  MPI_Attr_put(MPI_COMM_WORLD, old, (void*)(intptr_t)5);
  MPI_Comm c;
  MPI_Comm_dup(MPI_COMM_WORLD, &c);
  MPI_Attr_get(c, old, &v, &flag);
  CHECK(flag && (intptr_t)v == 6, "MPI_Attr_get after dup: %d %ld", flag, (long)(intptr_t)v);
  MPI_Attr_delete(c, old);
  CHECK(last_deleted == 6, "MPI_Attr_delete: last %ld", (long)last_deleted);
  MPI_Comm_free(&c);
  MPI_Attr_delete(MPI_COMM_WORLD, old);
  MPI_Keyval_free(&old);

  /* predefined attributes, on MPI_COMM_WORLD and on a dup */
  MPI_Comm d;
  MPI_Comm_dup(MPI_COMM_WORLD, &d);
  MPI_Comm comms[2] = {MPI_COMM_WORLD, d};
  for (int i = 0; i < 2; ++i) {
    int* p;
    MPI_Comm_get_attr(comms[i], MPI_TAG_UB, &p, &flag);
    CHECK(flag && *p >= 32767, "MPI_TAG_UB %d", flag ? *p : -1);
    MPI_Comm_get_attr(comms[i], MPI_WTIME_IS_GLOBAL, &p, &flag);
    CHECK(flag && *p == 1, "MPI_WTIME_IS_GLOBAL");
    MPI_Comm_get_attr(comms[i], MPI_UNIVERSE_SIZE, &p, &flag);
    CHECK(flag && *p == size, "MPI_UNIVERSE_SIZE %d", flag ? *p : -1);
    MPI_Comm_get_attr(comms[i], MPI_HOST, &p, &flag);
    CHECK(flag && *p == MPI_PROC_NULL, "MPI_HOST");
    MPI_Comm_get_attr(comms[i], MPI_IO, &p, &flag);
    CHECK(flag && *p == MPI_ANY_SOURCE, "MPI_IO");
    MPI_Comm_get_attr(comms[i], MPI_APPNUM, &p, &flag);
    CHECK(flag && *p == 0, "MPI_APPNUM");
    MPI_Comm_get_attr(comms[i], MPI_LASTUSEDCODE, &p, &flag);
    CHECK(flag && *p >= MPI_ERR_LASTCODE, "MPI_LASTUSEDCODE");
  }
  MPI_Comm_free(&d);
}

static int handler_calls = 0;
static MPI_Comm handler_comm = MPI_COMM_NULL;
static int handler_code = 0;

static void my_handler(MPI_Comm* comm, int* code, ...)
{
  ++handler_calls;
  handler_comm = *comm;
  handler_code = *code;
}

static void errhandlers(int size)
{
  MPI_Errhandler eh, got;
  MPI_Comm_create_errhandler(my_handler, &eh);
  MPI_Comm a;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_set_errhandler(a, eh);
  /* a communicator created from `a` inherits its handler */
  MPI_Comm b;
  MPI_Comm_split(a, 0, 0, &b);
  MPI_Comm_get_errhandler(b, &got);
  CHECK(got == eh, "split did not inherit the error handler");
  MPI_Errhandler_free(&got);
  int x = 0;
  int err = MPI_Send(&x, 1, MPI_INT, size + 3, 0, b);
  int cls = -1;
  MPI_Error_class(err, &cls);
  CHECK(handler_calls == 1 && handler_comm == b, "handler calls %d", handler_calls);
  CHECK(cls == MPI_ERR_RANK && handler_code == err, "error class %d, handler got %d", cls, handler_code);
  /* MPI_Comm_call_errhandler */
  MPI_Comm_call_errhandler(a, MPI_ERR_OTHER);
  CHECK(handler_calls == 2 && handler_comm == a && handler_code == MPI_ERR_OTHER, "call_errhandler");
  MPI_Errhandler_free(&eh);
  CHECK(eh == MPI_ERRHANDLER_NULL, "errhandler not reset by free");
  /* still attached to a and b after the free */
  MPI_Comm_call_errhandler(b, MPI_ERR_ARG);
  CHECK(handler_calls == 3, "handler after MPI_Errhandler_free");

  /* MPI_ERRORS_RETURN on a dup only: MPI_COMM_WORLD stays fatal */
  MPI_Comm r;
  MPI_Comm_dup(MPI_COMM_WORLD, &r);
  MPI_Comm_set_errhandler(r, MPI_ERRORS_RETURN);
  err = MPI_Send(&x, 1, MPI_INT, -5, 0, r);
  CHECK(err != MPI_SUCCESS, "send to rank -5 succeeded");
  MPI_Comm_get_errhandler(MPI_COMM_WORLD, &got);
  CHECK(got == MPI_ERRORS_ARE_FATAL, "world's handler changed");
  MPI_Comm_free(&r);
  MPI_Comm_free(&b);
  MPI_Comm_free(&a);
}

static void infos(void)
{
  MPI_Info info, copy;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alpha", "1");
  MPI_Info_set(info, "beta", "two");
  MPI_Info_set(info, "alpha", "one");
  int n = -1, flag = 0, len = 0;
  MPI_Info_get_nkeys(info, &n);
  CHECK(n == 2, "nkeys %d", n);
  char key[MPI_MAX_INFO_KEY + 1], value[64];
  MPI_Info_get_nthkey(info, 0, key);
  CHECK(strcmp(key, "alpha") == 0, "key 0 \"%s\"", key);
  MPI_Info_get_nthkey(info, 1, key);
  CHECK(strcmp(key, "beta") == 0, "key 1 \"%s\"", key);
  MPI_Info_get(info, "alpha", sizeof value - 1, value, &flag);
  CHECK(flag && strcmp(value, "one") == 0, "get alpha \"%s\"", value);
  MPI_Info_get_valuelen(info, "beta", &len, &flag);
  CHECK(flag && len == 3, "valuelen %d", len);
  int buflen = 2;
  MPI_Info_get_string(info, "beta", &buflen, value, &flag);
  CHECK(flag && buflen == 4 && strcmp(value, "t") == 0, "get_string truncated \"%s\" %d", value, buflen);
  MPI_Info_get(info, "gamma", sizeof value - 1, value, &flag);
  CHECK(!flag, "gamma found");
  MPI_Info_dup(info, &copy);
  MPI_Info_delete(info, "alpha");
  MPI_Info_get_nkeys(info, &n);
  CHECK(n == 1, "nkeys after delete %d", n);
  MPI_Info_get_nkeys(copy, &n);
  CHECK(n == 2, "dup nkeys %d", n);

  /* hints of communicators */
  MPI_Comm c, d;
  MPI_Comm_dup_with_info(MPI_COMM_WORLD, copy, &c);
  MPI_Info used;
  MPI_Comm_get_info(c, &used);
  MPI_Info_get(used, "beta", sizeof value - 1, value, &flag);
  CHECK(flag && strcmp(value, "two") == 0, "dup_with_info hint \"%s\"", flag ? value : "");
  MPI_Info_free(&used);
  MPI_Comm_set_info(c, info);
  MPI_Comm_dup(c, &d);
  MPI_Comm_get_info(d, &used);
  MPI_Info_get_nkeys(used, &n);
  CHECK(n == 2, "hints of a dup %d", n);
  MPI_Info_free(&used);
  MPI_Comm_free(&d);
  MPI_Comm_free(&c);

  MPI_Info_free(&info);
  MPI_Info_free(&copy);
  CHECK(info == MPI_INFO_NULL && copy == MPI_INFO_NULL, "info handles not reset");

  /* MPI_INFO_ENV */
  MPI_Info_get(MPI_INFO_ENV, "maxprocs", sizeof value - 1, value, &flag);
  CHECK(flag && strcmp(value, "4") == 0, "MPI_INFO_ENV maxprocs \"%s\"", flag ? value : "");
}

int main(int argc, char** argv)
{
  int rank, size;
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 4) {
    if (rank == 0)
      printf("run with 4 ranks\n");
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  attributes(size);
  errhandlers(size);
  infos();
  finish("comm_attr");
  MPI_Finalize();
  return 0;
}
