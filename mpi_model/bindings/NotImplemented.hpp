// The MPI procedures of mpi.h that the model does not implement yet. They
// exist so that every program written against mpi.h links and runs until it
// calls one; the call then raises MPI_ERR_UNSUPPORTED_OPERATION (fatal by
// default) naming the procedure and the missing area, at the simulated time
// of the call.
//
// Deliberately free of mpi.h: NotImplemented.cpp defines the procedures with
// a variadic signature and must not see their real prototypes.
#pragma once

namespace progsim::mpi {

// Raises the error on MPI_COMM_WORLD from within `call`; returns its code
// when the error handler lets the program continue.
int report_not_implemented(const char* call, const char* area);

}  // namespace progsim::mpi
