#include "bindings/GeneralizedRequests.hpp"

#include "core/Process.hpp"
#include "sim/ActingTime.hpp"

using namespace progsim;
using namespace progsim::mpi;

namespace {

int call_free_fn(const Binding& b, const GeneralizedCallbacks& g)
{
  return call_user_code(b.rank(), [&] { return g.free(g.extra_state); });
}

}  // namespace

namespace progsim::mpi {

int retire_generalized(const Binding& b, MPI_Request* handle, const RequestPtr& request, MPI_Status* status)
{
  // query_fn must be able to write a status even when the caller ignores it.
  MPI_Status local{};
  MPI_Status* st = status == MPI_STATUS_IGNORE ? &local : status;
  fill_status(st, *request);
  const GeneralizedCallbacks& g = request->rare().generalized;
  int err = call_user_code(b.rank(), [&] { return g.query(g.extra_state, st); });
  int free_err = call_free_fn(b, g);
  b.model().requests().erase(*handle);
  *handle = MPI_REQUEST_NULL;
  return err != MPI_SUCCESS ? err : free_err;
}

int cancel_generalized(const Binding& b, Request& request)
{
  const GeneralizedCallbacks& g = request.rare().generalized;
  int complete = request.complete() ? 1 : 0;
  return call_user_code(b.rank(), [&] { return g.cancel(g.extra_state, complete); });
}

int free_generalized(const Binding& b, const RequestPtr& request)
{
  request->freed_by_user = true;
  if (!request->complete())
    return MPI_SUCCESS;
  return call_free_fn(b, request->rare().generalized);
}

}  // namespace progsim::mpi

extern "C" {

int PMPI_Grequest_start(MPI_Grequest_query_function* query_fn, MPI_Grequest_free_function* free_fn,
                        MPI_Grequest_cancel_function* cancel_fn, void* extra_state, MPI_Request* request)
{
  Binding b("MPI_Grequest_start");
  if (int err = b.check_initialized())
    return err;
  if (!query_fn || !free_fn || !cancel_fn || !request)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null callback or request argument");
  auto r = std::make_shared<Request>();
  r->kind = RequestKind::Generalized;
  r->owner = b.world();
  r->call = "MPI_Grequest_start";
  r->state = RequestState::Posted;
  r->post_time = sim::acting_time();
  r->status_source = MPI_UNDEFINED;
  r->status_tag = MPI_UNDEFINED;
  r->writable_rare().generalized = {query_fn, free_fn, cancel_fn, extra_state};
  *request = hand_out(b, r);
  return MPI_SUCCESS;
}

// Local (MPI-4.1 §13.2): marks the request complete; a wait on it returns.
int PMPI_Grequest_complete(MPI_Request request)
{
  Binding b("MPI_Grequest_complete");
  if (int err = b.check_initialized())
    return err;
  RequestPtr r = b.model().requests().find(request);
  if (!r || r->kind != RequestKind::Generalized)
    return b.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "not a generalized request");
  if (r->complete())
    return b.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "MPI_Grequest_complete called twice");
  r->state = RequestState::Complete;
  r->complete_time = sim::acting_time();
  b.model().rank_progress(r->owner).wake();
  if (r->freed_by_user) {
    b.model().requests().erase(request);
    return call_free_fn(b, r->rare().generalized);
  }
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Grequest_start)
PROGSIM_MPI_ALIAS(MPI_Grequest_complete)
