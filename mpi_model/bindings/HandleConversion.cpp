// Conversions between C and Fortran handles (MPI-4.1 §19.3.4). progsim's C
// handles are already integers (docs/design/handles.md) with the same
// values a Fortran program would hold, so every conversion is the identity;
// a handle is checked where it is used, as in the C bindings.
#include "bindings/Binding.hpp"

#define PROGSIM_HANDLE_CONVERSIONS(Kind, CType)                                  \
  extern "C" MPI_Fint PMPI_##Kind##_c2f(CType handle) { return static_cast<MPI_Fint>(handle); } \
  extern "C" CType PMPI_##Kind##_f2c(MPI_Fint handle) { return static_cast<CType>(handle); }     \
  PROGSIM_MPI_ALIAS(MPI_##Kind##_c2f)                                            \
  PROGSIM_MPI_ALIAS(MPI_##Kind##_f2c)

PROGSIM_HANDLE_CONVERSIONS(Comm, MPI_Comm)
PROGSIM_HANDLE_CONVERSIONS(Errhandler, MPI_Errhandler)
PROGSIM_HANDLE_CONVERSIONS(Group, MPI_Group)
PROGSIM_HANDLE_CONVERSIONS(Info, MPI_Info)
PROGSIM_HANDLE_CONVERSIONS(Message, MPI_Message)
PROGSIM_HANDLE_CONVERSIONS(Op, MPI_Op)
PROGSIM_HANDLE_CONVERSIONS(Request, MPI_Request)
PROGSIM_HANDLE_CONVERSIONS(Session, MPI_Session)
PROGSIM_HANDLE_CONVERSIONS(Type, MPI_Datatype)
PROGSIM_HANDLE_CONVERSIONS(Win, MPI_Win)

// MPI-IO is not modelled: no file handle exists but MPI_FILE_NULL, whose
// Fortran value is 0.
extern "C" MPI_Fint PMPI_File_c2f(MPI_File) { return 0; }
extern "C" MPI_File PMPI_File_f2c(MPI_Fint) { return MPI_FILE_NULL; }
PROGSIM_MPI_ALIAS(MPI_File_c2f)
PROGSIM_MPI_ALIAS(MPI_File_f2c)
