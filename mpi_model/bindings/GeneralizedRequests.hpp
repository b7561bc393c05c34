// Generalized requests (MPI-4.1 §13.2): operations the program defines and
// completes itself with MPI_Grequest_complete. The wait and test procedures
// treat them like any request; at completion they report through the
// program's query callback and then release it with its free callback.
#pragma once

#include "bindings/Binding.hpp"

namespace progsim::mpi {

// Completes a finished generalized request for a wait or test procedure:
// status from query_fn, then free_fn, and the handle is released. Returns
// the first error code a callback returned.
int retire_generalized(const Binding& b, MPI_Request* handle, const RequestPtr& request, MPI_Status* status);
// MPI_Cancel of a generalized request: calls cancel_fn(extra_state, complete).
int cancel_generalized(const Binding& b, Request& request);
// MPI_Request_free: free_fn runs now if the request completed, else at MPI_Grequest_complete.
int free_generalized(const Binding& b, const RequestPtr& request);

}  // namespace progsim::mpi
