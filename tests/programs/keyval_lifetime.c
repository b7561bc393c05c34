/* The lifetime of a freed keyval (MPI-4.1 §7.7.2, §7.7.3, §7.7.4), for
 * communicator, window and datatype keyvals alike:
 * - freeing a keyval that attributes still use is not erroneous; its
 *   delete callback still runs when those attributes go;
 * - the program may still delete those attributes with the freed keyval's
 *   value ("These references need to be explicitly freed by the program,
 *   either via calls to MPI_COMM_DELETE_ATTR ... or by calls to
 *   MPI_COMM_FREE"; MPICH's attr/fkeyval does so);
 * - it may no longer set or get attributes with it (MPI_ERR_KEYVAL);
 * - freeing it again while attributes use it changes nothing (MPICH's
 *   attr/keyval_double_free frees it in every delete callback; here main
 *   does, as a trace leaves out local calls made inside a callback:
 *   docs/traces.md); once the last attribute is gone the value names no
 *   keyval (MPI_ERR_KEYVAL). */
#include "check.h"

static int comm_deletes = 0, win_deletes = 0, type_deletes = 0;

static int comm_delete(MPI_Comm comm, int keyval, void* value, void* extra)
{
  (void)comm, (void)keyval, (void)value, (void)extra;
  ++comm_deletes;
  return MPI_SUCCESS;
}

static int win_delete(MPI_Win win, int keyval, void* value, void* extra)
{
  (void)win, (void)keyval, (void)value, (void)extra;
  ++win_deletes;
  return MPI_SUCCESS;
}

static int type_delete(MPI_Datatype type, int keyval, void* value, void* extra)
{
  (void)type, (void)keyval, (void)value, (void)extra;
  ++type_deletes;
  return MPI_SUCCESS;
}

static int error_class(int err)
{
  int cls;
  MPI_Error_class(err, &cls);
  return cls;
}

static void communicators(void)
{
  int kv, saved, flag;
  void* v;
  MPI_Comm a, b;
  MPI_Comm_dup(MPI_COMM_WORLD, &a);
  MPI_Comm_dup(MPI_COMM_WORLD, &b);
  MPI_Comm_set_errhandler(a, MPI_ERRORS_RETURN);
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, comm_delete, &kv, NULL);
  saved = kv;
  MPI_Comm_set_attr(a, kv, (void*)1);
  MPI_Comm_set_attr(b, kv, (void*)2);
  MPI_Comm_free_keyval(&kv);
  CHECK(kv == MPI_KEYVAL_INVALID, "free_keyval left %d", kv);
  CHECK(error_class(MPI_Comm_get_attr(a, saved, &v, &flag)) == MPI_ERR_KEYVAL, "get with a freed keyval");
  CHECK(error_class(MPI_Comm_set_attr(a, saved, (void*)3)) == MPI_ERR_KEYVAL, "set with a freed keyval");
  CHECK(MPI_Comm_delete_attr(a, saved) == MPI_SUCCESS && comm_deletes == 1, "delete with the freed keyval: %d",
        comm_deletes);
  CHECK(MPI_Attr_delete(a, saved) == MPI_SUCCESS && comm_deletes == 1, "second delete ran the callback");
  kv = saved;
  CHECK(MPI_Comm_free_keyval(&kv) == MPI_SUCCESS, "free of a freed keyval still in use");
  MPI_Comm_free(&b); /* the last use goes */
  CHECK(comm_deletes == 2, "delete at MPI_Comm_free: %d", comm_deletes);
  kv = saved;
  CHECK(error_class(MPI_Comm_free_keyval(&kv)) == MPI_ERR_KEYVAL, "free after the last attribute went");
  MPI_Comm_free(&a);
}

static void windows(void)
{
  int kv, saved, flag;
  void* v;
  int mem[2];
  MPI_Win w[2];
  for (int i = 0; i < 2; ++i) {
    MPI_Win_create(&mem[i], sizeof(int), 1, MPI_INFO_NULL, MPI_COMM_WORLD, &w[i]);
    MPI_Win_set_errhandler(w[i], MPI_ERRORS_RETURN);
  }
  MPI_Win_create_keyval(MPI_WIN_NULL_COPY_FN, win_delete, &kv, NULL);
  saved = kv;
  MPI_Win_set_attr(w[0], kv, NULL);
  MPI_Win_set_attr(w[1], kv, NULL);
  MPI_Win_free_keyval(&kv);
  MPI_Win_free(&w[0]);
  CHECK(win_deletes == 1, "delete at MPI_Win_free: %d", win_deletes);
  kv = saved;
  CHECK(MPI_Win_free_keyval(&kv) == MPI_SUCCESS, "free of a freed window keyval still in use");
  CHECK(error_class(MPI_Win_get_attr(w[1], saved, &v, &flag)) == MPI_ERR_KEYVAL, "get with a freed keyval");
  CHECK(MPI_Win_delete_attr(w[1], saved) == MPI_SUCCESS && win_deletes == 2, "delete with the freed keyval: %d",
        win_deletes);
  kv = saved;
  CHECK(error_class(MPI_Win_free_keyval(&kv)) == MPI_ERR_KEYVAL, "free after the last attribute went");
  MPI_Win_free(&w[1]);
}

static void datatypes(void)
{
  int kv, saved, flag;
  void* v;
  MPI_Datatype t, d;
  MPI_Type_contiguous(2, MPI_INT, &t);
  MPI_Type_create_keyval(MPI_TYPE_DUP_FN, type_delete, &kv, NULL);
  saved = kv;
  MPI_Type_set_attr(t, kv, (void*)7);
  MPI_Type_dup(t, &d); /* the copy is a second use */
  MPI_Type_free_keyval(&kv);
  CHECK(error_class(MPI_Type_get_attr(t, saved, &v, &flag)) == MPI_ERR_KEYVAL, "get with a freed keyval");
  kv = saved;
  CHECK(MPI_Type_free_keyval(&kv) == MPI_SUCCESS, "free of a freed type keyval still in use");
  MPI_Type_free(&d);
  CHECK(type_deletes == 1, "delete at MPI_Type_free: %d", type_deletes);
  CHECK(MPI_Type_delete_attr(t, saved) == MPI_SUCCESS && type_deletes == 2, "delete with the freed keyval: %d",
        type_deletes);
  kv = saved;
  CHECK(error_class(MPI_Type_free_keyval(&kv)) == MPI_ERR_KEYVAL, "free after the last attribute went");
  int comm_kv;
  MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, MPI_COMM_NULL_DELETE_FN, &comm_kv, NULL);
  CHECK(error_class(MPI_Type_set_attr(t, comm_kv, NULL)) == MPI_ERR_KEYVAL, "a communicator keyval on a type");
  MPI_Comm_free_keyval(&comm_kv);
  MPI_Type_free(&t);
}

int main(int argc, char** argv)
{
  MPI_Init(&argc, &argv);
  MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
  communicators();
  windows();
  datatypes();
  finish("keyval_lifetime");
  MPI_Finalize();
  return 0;
}
