// The predefined attribute copy and delete callbacks (MPI-4.1 §7.7.2,
// §7.7.3, §7.7.4 and the deprecated §16.3 ones), declared in mpi.h and
// named there MPI_COMM_NULL_COPY_FN, MPI_TYPE_DUP_FN, MPI_NULL_DELETE_FN...
//   NULL_COPY:   *flag = 0 (the attribute is not copied), MPI_SUCCESS
//   NULL_DELETE: nothing, MPI_SUCCESS
//   DUP:         the copy holds the same value: *(void **)out = in, *flag = 1
// They are plain functions: they call no MPI and cost nothing.

#include <mpi.h>

namespace {

int null_copy(void* /*attribute_val_out*/, int* flag)
{
  *flag = 0;
  return MPI_SUCCESS;
}

int dup_copy(void* attribute_val_in, void* attribute_val_out, int* flag)
{
  *static_cast<void**>(attribute_val_out) = attribute_val_in;
  *flag = 1;
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int progsim_comm_null_copy_fn(MPI_Comm, int, void*, void*, void* attribute_val_out, int* flag)
{
  return null_copy(attribute_val_out, flag);
}

int progsim_comm_null_delete_fn(MPI_Comm, int, void*, void*)
{
  return MPI_SUCCESS;
}

int progsim_comm_dup_fn(MPI_Comm, int, void*, void* attribute_val_in, void* attribute_val_out, int* flag)
{
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

int progsim_type_null_copy_fn(MPI_Datatype, int, void*, void*, void* attribute_val_out, int* flag)
{
  return null_copy(attribute_val_out, flag);
}

int progsim_type_null_delete_fn(MPI_Datatype, int, void*, void*)
{
  return MPI_SUCCESS;
}

int progsim_type_dup_fn(MPI_Datatype, int, void*, void* attribute_val_in, void* attribute_val_out, int* flag)
{
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

int progsim_win_null_copy_fn(MPI_Win, int, void*, void*, void* attribute_val_out, int* flag)
{
  return null_copy(attribute_val_out, flag);
}

int progsim_win_null_delete_fn(MPI_Win, int, void*, void*)
{
  return MPI_SUCCESS;
}

int progsim_win_dup_fn(MPI_Win, int, void*, void* attribute_val_in, void* attribute_val_out, int* flag)
{
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

int progsim_null_copy_fn(MPI_Comm, int, void*, void*, void* attribute_val_out, int* flag)
{
  return null_copy(attribute_val_out, flag);
}

int progsim_null_delete_fn(MPI_Comm, int, void*, void*)
{
  return MPI_SUCCESS;
}

int progsim_dup_fn(MPI_Comm, int, void*, void* attribute_val_in, void* attribute_val_out, int* flag)
{
  return dup_copy(attribute_val_in, attribute_val_out, flag);
}

}  // extern "C"
