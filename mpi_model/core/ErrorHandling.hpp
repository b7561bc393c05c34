// MPI error reporting (MPI-4.1 §9.3): an error is raised on a communicator;
// its error handler decides. MPI_ERRORS_ARE_FATAL (the default) and
// MPI_ERRORS_ABORT end the run with a message naming the rank, the call and
// the error class; MPI_ERRORS_RETURN returns the code to the program.
#pragma once

#include <mpi.h>

#include <string>

namespace progsim::mpi {

// Returns `error_class` when the handler lets the program continue.
int raise_error(MPI_Comm comm, int error_class, const char* call, const std::string& detail);
// The same for an error raised on a window (MPI-4.1 §9.3.2) or a session
// (MPI-4.1 §11.3: MPI_Session_init's `errhandler`): `handler` is the
// object's error handler; a user handler is called with `object`, the
// window's or session's handle.
int raise_object_error(int object, MPI_Errhandler handler, int error_class, const char* call,
                       const std::string& detail);

const char* error_class_name(int error_class);  // "MPI_ERR_RANK"
const char* error_class_text(int error_class);  // "invalid rank"
bool is_valid_error_code(int code);

}  // namespace progsim::mpi
