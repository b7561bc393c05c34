// MPI-4.1 §3.7.3-3.7.5, §3.9: completing requests (wait and test families),
// freeing, cancelling and starting persistent requests.
//
// Test procedures progress (MPI-4.1 §2.9): each call runs one progress poll
// of the caller's MPI library, and calls that return false are counted.

#include "bindings/Binding.hpp"
#include "bindings/GeneralizedRequests.hpp"
#include "bindings/Partitioned.hpp"
#include "diagnosis/CallSites.hpp"
#include "p2p/MessageRaces.hpp"
#include "sim/ActingTime.hpp"

#include <algorithm>
#include <vector>

using namespace progsim;
using namespace progsim::mpi;

namespace {

// An active request behind a handle, or nullptr for MPI_REQUEST_NULL and
// inactive persistent requests (both complete at once with an empty status).
RequestPtr lookup(const Binding& b, MPI_Request handle, int& err)
{
  err = MPI_SUCCESS;
  if (handle == MPI_REQUEST_NULL)
    return nullptr;
  RequestPtr r = b.model().requests().find(handle);
  if (!r) {
    err = b.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "invalid request handle");
    return nullptr;
  }
  return r->active() ? r : nullptr;
}

// The result of a call completing several requests: MPI_ERR_IN_STATUS when
// one failed. Each status's MPI_ERROR holds its own outcome: required when
// one failed (MPI-4.1 §3.7.5), left open by the standard otherwise, and set
// to MPI_SUCCESS then as MPICH and Open MPI do (programs and MPICH's own
// tests read it after a successful MPI_Waitall).
int multiple_completion_result(const std::vector<int>& errors, MPI_Status* statuses)
{
  bool failed = false;
  for (int e : errors)
    failed = failed || e != MPI_SUCCESS;
  if (statuses != MPI_STATUSES_IGNORE)
    for (std::size_t i = 0; i < errors.size(); ++i)
      statuses[i].MPI_ERROR = errors[i];
  return failed ? MPI_ERR_IN_STATUS : MPI_SUCCESS;
}

// MPI-4.1 §4.2.1: "Freeing or cancelling a partitioned communication request
// that is active (i.e., initialized and started) and not completed is erroneous."
std::string active_partitioned_request(const Request& r, const char* what)
{
  return std::string("the request of ") + r.call + " is active and not complete: " + what +
         " an active partitioned request is erroneous (MPI-4.1 §4.2.1); complete it first (MPI_Pready, MPI_Wait)";
}

// The request behind a handle that must name one (not MPI_REQUEST_NULL).
int existing_request(const Binding& b, MPI_Request handle, RequestPtr& request)
{
  if (int err = b.check_initialized())
    return err;
  request = b.model().requests().find(handle);
  if (!request)
    return b.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "invalid request handle");
  return MPI_SUCCESS;
}

// The request completed: report it and release or deactivate the handle.
int retire(const Binding& b, MPI_Request* handle, const RequestPtr& r, MPI_Status* status)
{
  if (r->kind == RequestKind::Generalized)
    return retire_generalized(b, handle, r, status);
  fill_status(status, *r);
  int err = r->status_error;
  b.model().pending_buffers().disarm(*r);
  r->completion_seen = false;
  if (r->persistent) {
    r->state = RequestState::Inactive;
  } else {
    b.model().requests().erase(*handle);
    *handle = MPI_REQUEST_NULL;
  }
  b.p2p().released_by_user(*r);
  if (r->kind == RequestKind::Collective && err != MPI_SUCCESS)
    return b.error(r->comm_handle, err,
                   std::string("the collective ") + r->call +
                       (err == MPI_ERR_TRUNCATE ? " received more data than its receive buffer holds (the processes "
                                                  "passed different counts or datatypes)"
                                                : " failed"));
  if (err == MPI_ERR_TRUNCATE)
    return b.error(r->comm_handle, MPI_ERR_TRUNCATE,
                   "message from rank " + std::to_string(r->status_source) + " with tag " +
                       std::to_string(r->status_tag) + " is larger than the receive buffer of " +
                       std::to_string(r->bytes) + " bytes");
  return err;
}

// Retires every request of a completed MPI_Waitall / MPI_Testall.
int retire_all(const Binding& b, const std::vector<RequestPtr>& rs, MPI_Request requests[], MPI_Status statuses[])
{
  std::vector<int> errors(rs.size(), MPI_SUCCESS);
  for (std::size_t i = 0; i < rs.size(); ++i) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[i];
    if (!rs[i])
      empty_status(st);
    else
      errors[i] = retire(b, &requests[i], rs[i], st);
  }
  return multiple_completion_result(errors, statuses);
}

// One poll of a test procedure.
void test_poll(const Binding& b)
{
  RankProgress& p = b.progress();
  ++p.counters.tests;
  b.rank()->clock().charge_cpu(b.model().parameters().poll_cost);
  p.progress_point();
}

void count_false(const Binding& b, bool flag)
{
  if (!flag)
    ++b.progress().counters.false_tests;
}

std::vector<RequestPtr> lookup_all(const Binding& b, int count, MPI_Request* handles, int& err)
{
  std::vector<RequestPtr> rs(static_cast<size_t>(count));
  for (int i = 0; i < count && !err; ++i)
    rs[static_cast<size_t>(i)] = lookup(b, handles[i], err);
  return rs;
}

std::string describe_all(const std::vector<RequestPtr>& rs, const char* call)
{
  std::string text = std::string(call) + " on " + std::to_string(rs.size()) + " request(s):";
  for (auto& r : rs)
    if (r && !r->complete())
      text += " " + r->describe() + " [" + to_string(r->state) + "];";
  return text;
}

// Blocks until done(), recording the requests waited on (deadlock diagnosis).
// done() depends on the requests `rs` only, unless `on` says otherwise.
template <class Done>
void wait_for(const Binding& b, const std::vector<RequestPtr>& rs, Done done, const char* call,
              RankProgress::WaitOn on = RankProgress::WaitOn::Requests)
{
  std::vector<RequestPtr> active;
  for (auto& r : rs)
    if (r)
      active.push_back(r);
  b.p2p().set_waited(b.world(), active);
  b.progress().wait_until(done, [&rs, call]() -> std::string { return describe_all(rs, call); }, on);
  b.p2p().set_waited(b.world(), {});
}

// A test procedure on `rs` found nothing: if the rank is livelocked
// (RankProgress::test_found_nothing), holds it until something happens for
// it, and tests again. Returns whether `done` holds then.
template <class Done>
bool test_again_if_livelocked(const Binding& b, const std::vector<RequestPtr>& rs, Done done)
{
  if (!b.progress().test_found_nothing())
    return false;
  // Held until any wake-up (RankProgress::hold_test): a wait on anything.
  b.progress().hold_test([&](const std::function<bool()>& woken) {
    wait_for(b, rs, woken, b.call(), RankProgress::WaitOn::Anything);
  });
  return done();
}

// Which completed request(s) MPI_Waitany, Testany, Waitsome and Testsome
// return is the implementation's choice (MPI-4.1 §3.7.5): a decision of the
// run, recorded or forced (p2p/MessageRaces.hpp). The indices match-schedule
// forces (empty: the call's own choice).
std::vector<int> forced_requests(const Binding& b, DecisionKind kind, const std::vector<RequestPtr>& rs)
{
  MessageRaces* races = b.p2p().races();
  return races ? races->forced_requests(b.world(), kind, rs) : std::vector<int>{};
}

void decided(const Binding& b, DecisionKind kind, const std::vector<RequestPtr>& rs, const std::vector<int>& returned)
{
  if (MessageRaces* races = b.p2p().races())
    races->end_completion(b.world(), kind, b.call(), call_site_mark(b.rank()), rs, returned, sim::acting_time());
}

// The index MPI_Waitany / MPI_Testany returns now (-1: none yet): the first
// complete request, or the forced one once complete.
int any_returned(const std::vector<RequestPtr>& rs, const std::vector<int>& forced)
{
  if (!forced.empty())
    return Binding::done(*rs[static_cast<size_t>(forced.front())]) ? forced.front() : -1;
  for (size_t i = 0; i < rs.size(); ++i)
    if (rs[i] && Binding::done(*rs[i]))
      return static_cast<int>(i);
  return -1;
}

// The indices MPI_Waitsome / MPI_Testsome return now (empty: none yet):
// every complete request, or the forced ones once all are complete.
std::vector<int> some_returned(const std::vector<RequestPtr>& rs, const std::vector<int>& forced)
{
  std::vector<int> done;
  for (size_t i = 0; i < rs.size(); ++i)
    if (rs[i] && Binding::done(*rs[i]))
      done.push_back(static_cast<int>(i));
  if (forced.empty())
    return done;
  return std::includes(done.begin(), done.end(), forced.begin(), forced.end()) ? forced : std::vector<int>{};
}

}  // namespace

extern "C" {

int PMPI_Wait(MPI_Request* request, MPI_Status* status)
{
  Binding b("MPI_Wait", sim::CallKind::Stamped);
  if (int err = b.check_initialized())
    return err;
  int err;
  RequestPtr r = lookup(b, *request, err);
  if (err)
    return err;
  if (!r) {
    empty_status(status);
    return MPI_SUCCESS;
  }
  b.wait(r);
  return retire(b, request, r, status);
}

int PMPI_Test(MPI_Request* request, int* flag, MPI_Status* status)
{
  Binding b("MPI_Test");
  if (int err = b.check_initialized())
    return err;
  int err;
  RequestPtr r = lookup(b, *request, err);
  if (err)
    return err;
  test_poll(b);
  if (!r) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  *flag = Binding::done(*r) || test_again_if_livelocked(b, {r}, [&] { return Binding::done(*r); });
  count_false(b, *flag);
  return *flag ? retire(b, request, r, status) : MPI_SUCCESS;
}

int PMPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status)
{
  Binding b("MPI_Request_get_status");
  if (int err = b.check_initialized())
    return err;
  int err;
  RequestPtr r = lookup(b, request, err);
  if (err)
    return err;
  test_poll(b);
  if (!r) {
    *flag = 1;
    empty_status(status);
    return MPI_SUCCESS;
  }
  *flag = Binding::done(*r) || test_again_if_livelocked(b, {r}, [&] { return Binding::done(*r); });
  count_false(b, *flag);
  if (*flag) {
    fill_status(status, *r);
    r->completion_seen = true;
    b.model().pending_buffers().disarm(*r);  // the program knows it completed: its buffer is free again
  }
  return MPI_SUCCESS;
}

int PMPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  Binding b("MPI_Waitall", sim::CallKind::Stamped);
  if (int err = b.check_initialized())
    return err;
  int err = MPI_SUCCESS;
  std::vector<RequestPtr> rs = lookup_all(b, count, requests, err);
  if (err)
    return err;
  auto all_done = [&rs] {
    for (auto& r : rs)
      if (r && !Binding::done(*r))
        return false;
    return true;
  };
  if (!all_done())
    wait_for(b, rs, all_done, "MPI_Waitall");
  return retire_all(b, rs, requests, statuses);
}

int PMPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[])
{
  Binding b("MPI_Testall");
  if (int err = b.check_initialized())
    return err;
  int err = MPI_SUCCESS;
  std::vector<RequestPtr> rs = lookup_all(b, count, requests, err);
  if (err)
    return err;
  test_poll(b);
  auto all_done = [&rs] {
    for (auto& r : rs)
      if (r && !Binding::done(*r))
        return false;
    return true;
  };
  *flag = all_done() || test_again_if_livelocked(b, rs, all_done);
  count_false(b, *flag);
  if (!*flag)
    return MPI_SUCCESS;
  return retire_all(b, rs, requests, statuses);
}

int PMPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
  Binding b("MPI_Waitany", sim::CallKind::Stamped);
  if (int err = b.check_initialized())
    return err;
  int err = MPI_SUCCESS;
  std::vector<RequestPtr> rs = lookup_all(b, count, requests, err);
  if (err)
    return err;
  bool any_active = false;
  for (auto& r : rs)
    any_active = any_active || r;
  if (!any_active) {
    *index = MPI_UNDEFINED;
    empty_status(status);
    return MPI_SUCCESS;
  }
  std::vector<int> forced = forced_requests(b, DecisionKind::Waitany, rs);
  if (any_returned(rs, forced) < 0)
    wait_for(b, rs, [&] { return any_returned(rs, forced) >= 0; }, "MPI_Waitany");
  *index = any_returned(rs, forced);
  decided(b, DecisionKind::Waitany, rs, {*index});
  return retire(b, &requests[*index], rs[static_cast<size_t>(*index)], status);
}

int PMPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
{
  Binding b("MPI_Testany");
  if (int err = b.check_initialized())
    return err;
  int err = MPI_SUCCESS;
  std::vector<RequestPtr> rs = lookup_all(b, count, requests, err);
  if (err)
    return err;
  test_poll(b);
  bool any_active = std::any_of(rs.begin(), rs.end(), [](const RequestPtr& r) { return !!r; });
  std::vector<int> forced = any_active ? forced_requests(b, DecisionKind::Testany, rs) : std::vector<int>{};
  int i = any_returned(rs, forced);
  if (i < 0 && any_active && test_again_if_livelocked(b, rs, [&] { return any_returned(rs, forced) >= 0; }))
    i = any_returned(rs, forced);
  if (i >= 0) {
    *flag = 1;
    *index = i;
    decided(b, DecisionKind::Testany, rs, {i});
    return retire(b, &requests[i], rs[static_cast<size_t>(i)], status);
  }
  *index = MPI_UNDEFINED;
  *flag = !any_active;
  if (*flag)
    empty_status(status);
  count_false(b, *flag);
  return MPI_SUCCESS;
}

static int some(const Binding& b, int incount, MPI_Request requests[], int* outcount, int indices[],
                MPI_Status statuses[], bool block)
{
  int err = MPI_SUCCESS;
  std::vector<RequestPtr> rs = lookup_all(b, incount, requests, err);
  if (err)
    return err;
  bool any_active = false;
  for (auto& r : rs)
    any_active = any_active || r;
  if (!any_active) {
    *outcount = MPI_UNDEFINED;
    return MPI_SUCCESS;
  }
  DecisionKind kind = block ? DecisionKind::Waitsome : DecisionKind::Testsome;
  std::vector<int> forced = forced_requests(b, kind, rs);
  auto ready = [&] { return !some_returned(rs, forced).empty(); };
  if (block && !ready())
    wait_for(b, rs, ready, b.call());
  else if (!block && !ready())
    test_again_if_livelocked(b, rs, ready);
  std::vector<int> returned = some_returned(rs, forced);
  *outcount = static_cast<int>(returned.size());
  if (!returned.empty())
    decided(b, kind, rs, returned);
  std::vector<int> errors;
  for (int i : returned) {
    MPI_Status* st = statuses == MPI_STATUSES_IGNORE ? MPI_STATUS_IGNORE : &statuses[errors.size()];
    indices[errors.size()] = i;
    errors.push_back(retire(b, &requests[i], rs[static_cast<size_t>(i)], st));
  }
  return multiple_completion_result(errors, statuses);
}

int PMPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  Binding b("MPI_Waitsome");
  if (int err = b.check_initialized())
    return err;
  return some(b, incount, requests, outcount, indices, statuses, true);
}

int PMPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  Binding b("MPI_Testsome");
  if (int err = b.check_initialized())
    return err;
  test_poll(b);
  int err = some(b, incount, requests, outcount, indices, statuses, false);
  count_false(b, *outcount != 0);
  return err;
}

int PMPI_Request_free(MPI_Request* request)
{
  Binding b("MPI_Request_free");
  RequestPtr r;
  if (int err = existing_request(b, *request, r))
    return err;
  int err = MPI_SUCCESS;
  if (r->kind == RequestKind::Generalized) {
    err = free_generalized(b, r);
    if (!r->complete()) {
      *request = MPI_REQUEST_NULL;  // the table entry stays until MPI_Grequest_complete
      return err;
    }
  } else if (r->kind == RequestKind::Collective && r->active() && !r->complete()) {
    return b.error(r->comm_handle, MPI_ERR_REQUEST,
                   std::string("the request of ") + r->call +
                       " is still active: freeing a collective's request before it completed is erroneous (MPI-4.1 "
                       "§6.12)");
  } else if (r->kind == RequestKind::Rma) {
    // The operation goes on; its epoch's synchronization completes it.
  } else if (r->kind == RequestKind::Partitioned && r->active() && !Binding::done(*r)) {
    return b.error(r->comm_handle, MPI_ERR_REQUEST, active_partitioned_request(*r, "freeing"));
  } else if (r->kind == RequestKind::Partitioned) {
    // Inactive, or complete and not yet waited for: nothing moves any more.
  } else if (r->active() && !Binding::done(*r)) {
    // MPI-4.1 §3.7.3: the operation goes on; the library completes it alone.
    for (auto& part : r->rare().parts)
      b.p2p().freed_by_user(*part);
    if (r->rare().parts.empty())
      b.p2p().freed_by_user(*r);
  }
  b.model().requests().erase(*request);
  *request = MPI_REQUEST_NULL;
  b.p2p().released_by_user(*r);
  // MPI-4.1 §3.7.3: the program cannot learn when a freed operation
  // completes; the check of its buffer ends here (no false positive).
  b.model().pending_buffers().disarm(*r);
  return err;
}

int PMPI_Cancel(MPI_Request* request)
{
  Binding b("MPI_Cancel");
  RequestPtr r;
  if (int err = existing_request(b, *request, r))
    return err;
  if (r->kind == RequestKind::Generalized)
    return cancel_generalized(b, *r);
  if (r->kind == RequestKind::Collective)
    return b.error(r->comm_handle, MPI_ERR_REQUEST,
                   std::string("a collective's request (") + r->call + ") cannot be cancelled (MPI-4.1 §6.12)");
  if (r->kind == RequestKind::Partitioned) {
    if (r->active() && !Binding::done(*r))
      return b.error(r->comm_handle, MPI_ERR_REQUEST, active_partitioned_request(*r, "cancelling"));
    return MPI_SUCCESS;  // inactive or complete: nothing to withdraw
  }
  // RMA operations cannot be cancelled. A send whose request completed (its
  // data was buffered) may still be withdrawn: its message may be unmatched.
  bool cancellable = r->kind == RequestKind::Send ? r->active() : r->active() && !r->complete();
  if (cancellable && r->kind != RequestKind::Rma && r->rare().parts.empty())
    b.p2p().cancel(r);
  return MPI_SUCCESS;
}

int PMPI_Test_cancelled(const MPI_Status* status, int* flag)
{
  Binding b("MPI_Test_cancelled");
  *flag = status->count_hi_and_cancelled & 1;
  return MPI_SUCCESS;
}

int PMPI_Start(MPI_Request* request)
{
  Binding b("MPI_Start");
  if (int err = b.check_initialized())
    return err;
  RequestPtr r = b.model().requests().find(*request);
  if (!r || !r->persistent)
    return b.error(MPI_COMM_WORLD, MPI_ERR_REQUEST, "not a persistent request");
  if (r->active()) {
    // MPI-4.1 §3.9: "The associated request should be inactive."
    report_call_error(b, "start of an active request", "MPI-4.1 §3.9",
                      "MPI_Start and MPI_Startall are called on inactive persistent requests (an active one is "
                      "completed by MPI_Wait or MPI_Test first)",
                      "rank " + std::to_string(b.world()) + " started its " + r->call + " request again while it "
                      "was active");
    return b.error(r->comm_handle, MPI_ERR_REQUEST, "the persistent request is already active");
  }
  int err = start_request(b, r);
  b.p2p().held_by_user(*r);  // measured from this start; held whenever the start made it active, failed or not
  if (err)
    return b.error(r->comm_handle, err, "the attached buffer cannot hold the message (MPI_Buffer_attach)");
  b.model().pending_buffers().arm(*r);
  return MPI_SUCCESS;
}

int PMPI_Startall(int count, MPI_Request requests[])
{
  for (int i = 0; i < count; ++i)
    if (int err = PMPI_Start(&requests[i]))
      return err;
  return MPI_SUCCESS;
}

// MPI-4.1 §4.2.2: a test procedure (§2.9): it progresses like MPI_Test and
// counts as a test call.
int PMPI_Parrived(MPI_Request request, int partition, int* flag)
{
  Binding b("MPI_Parrived");
  RequestPtr r;
  PartitionedRecv* recv = nullptr;
  if (int err = partitioned_recv(b, request, r, recv))
    return err;
  if (int err = check_partition(b, *r, partition, recv->partitions()))
    return err;
  test_poll(b);
  if (!r->active()) {  // an inactive request has nothing pending, as for MPI_Test
    *flag = 1;
    return MPI_SUCCESS;
  }
  auto arrived = [&] { return recv->arrived(partition); };
  *flag = arrived() || test_again_if_livelocked(b, {r}, arrived);
  count_false(b, *flag);
  if (*flag)  // the program may access the partition now (MPI-4.1 §4.2.2)
    b.model().pending_buffers().partition_arrived(*r, partition);
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Wait)
PROGSIM_MPI_ALIAS(MPI_Test)
PROGSIM_MPI_ALIAS(MPI_Request_get_status)
PROGSIM_MPI_ALIAS(MPI_Waitall)
PROGSIM_MPI_ALIAS(MPI_Testall)
PROGSIM_MPI_ALIAS(MPI_Waitany)
PROGSIM_MPI_ALIAS(MPI_Testany)
PROGSIM_MPI_ALIAS(MPI_Waitsome)
PROGSIM_MPI_ALIAS(MPI_Testsome)
PROGSIM_MPI_ALIAS(MPI_Request_free)
PROGSIM_MPI_ALIAS(MPI_Cancel)
PROGSIM_MPI_ALIAS(MPI_Test_cancelled)
PROGSIM_MPI_ALIAS(MPI_Start)
PROGSIM_MPI_ALIAS(MPI_Startall)
PROGSIM_MPI_ALIAS(MPI_Parrived)
