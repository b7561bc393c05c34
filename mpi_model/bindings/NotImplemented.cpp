// The MPI procedures of mpi.h that the model does not implement yet (see
// NotImplemented.hpp). Each is defined once as PMPI_name with MPI_name a weak
// alias, like every other binding, so that the profiling interface stays
// complete. They are variadic because this file must not include mpi.h: the
// procedures only report, they never read their arguments, and a call
// through the real prototype is a valid call of a variadic function on the
// System V x86-64 ABI. tests/abi checks that libprogsim exports every
// procedure mpi.h declares.
#include "bindings/NotImplemented.hpp"

namespace {
constexpr const char* kIo = "MPI-IO (chapter 14)";
constexpr const char* kDynamic = "dynamic process management (chapter 11.8-11.10)";
constexpr const char* kBuffers =
    "the MPI-4.1 buffers of communicators and sessions (MPI-4.1 §3.6.1: MPI_Comm_attach_buffer, MPI_Session_attach_buffer, MPI_Buffer_flush & co.; MPI_Buffer_attach works)";
constexpr const char* kMpi5 = "the last MPI-4.1 and MPI-5.0 additions and Fortran interoperability";
}  // namespace

#define PROGSIM_NOT_IMPLEMENTED(name, area)                                          \
  extern "C" int PMPI_##name(...) { return progsim::mpi::report_not_implemented("MPI_" #name, area); } \
  extern "C" int MPI_##name(...) __attribute__((weak, alias("PMPI_" #name)));

PROGSIM_NOT_IMPLEMENTED(File_call_errhandler, kIo)
PROGSIM_NOT_IMPLEMENTED(File_close, kIo)
PROGSIM_NOT_IMPLEMENTED(File_create_errhandler, kIo)
PROGSIM_NOT_IMPLEMENTED(File_delete, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_amode, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_atomicity, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_byte_offset, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_errhandler, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_group, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_info, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_position, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_position_shared, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_size, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_type_extent, kIo)
PROGSIM_NOT_IMPLEMENTED(File_get_view, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iread, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iread_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iread_at, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iread_at_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iread_shared, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iwrite, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iwrite_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iwrite_at, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iwrite_at_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_iwrite_shared, kIo)
PROGSIM_NOT_IMPLEMENTED(File_open, kIo)
PROGSIM_NOT_IMPLEMENTED(File_preallocate, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_all_begin, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_all_end, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_at, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_at_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_at_all_begin, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_at_all_end, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_ordered, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_ordered_begin, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_ordered_end, kIo)
PROGSIM_NOT_IMPLEMENTED(File_read_shared, kIo)
PROGSIM_NOT_IMPLEMENTED(File_seek, kIo)
PROGSIM_NOT_IMPLEMENTED(File_seek_shared, kIo)
PROGSIM_NOT_IMPLEMENTED(File_set_atomicity, kIo)
PROGSIM_NOT_IMPLEMENTED(File_set_errhandler, kIo)
PROGSIM_NOT_IMPLEMENTED(File_set_info, kIo)
PROGSIM_NOT_IMPLEMENTED(File_set_size, kIo)
PROGSIM_NOT_IMPLEMENTED(File_set_view, kIo)
PROGSIM_NOT_IMPLEMENTED(File_sync, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_all_begin, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_all_end, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_at, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_at_all, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_at_all_begin, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_at_all_end, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_ordered, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_ordered_begin, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_ordered_end, kIo)
PROGSIM_NOT_IMPLEMENTED(File_write_shared, kIo)
PROGSIM_NOT_IMPLEMENTED(Register_datarep, kIo)

PROGSIM_NOT_IMPLEMENTED(Close_port, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Comm_accept, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Comm_connect, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Comm_disconnect, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Comm_get_parent, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Comm_join, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Comm_spawn, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Comm_spawn_multiple, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Lookup_name, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Open_port, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Publish_name, kDynamic)
PROGSIM_NOT_IMPLEMENTED(Unpublish_name, kDynamic)

PROGSIM_NOT_IMPLEMENTED(Session_attach_buffer, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Session_detach_buffer, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Session_flush_buffer, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Session_iflush_buffer, kBuffers)

PROGSIM_NOT_IMPLEMENTED(Buffer_flush, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Buffer_iflush, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Comm_attach_buffer, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Comm_detach_buffer, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Comm_flush_buffer, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Comm_iflush_buffer, kBuffers)
PROGSIM_NOT_IMPLEMENTED(Get_hw_resource_info, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Remove_error_class, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Remove_error_code, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Remove_error_string, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Request_get_status_all, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Request_get_status_any, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Request_get_status_some, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Status_c2f, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Status_f2c, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Type_create_f90_complex, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Type_create_f90_integer, kMpi5)
PROGSIM_NOT_IMPLEMENTED(Type_create_f90_real, kMpi5)
