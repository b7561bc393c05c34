// The calls that complete requests: wait, test and their any/some/all forms,
// MPI_Request_free, and MPI_Cancel (whose outcome the completion settles).
#include "traces/recorder/RecorderInternals.hpp"

#include "MpiModel.hpp"

namespace progsim::traces::recorder {

namespace {

// MPI_Waitany, MPI_Waitsome, MPI_Testany, MPI_Testall, MPI_Testsome: the
// event names the requests (written before the call, which may block); if
// the call completed some, a `completed` event then names those, so that a
// replay completes the same ones there whatever its own timing (replayed
// under another policy, another request may be the one a Waitany returns).
// `call(done)` runs the call and adds the indices it says it completed (a
// persistent request stays non-null: the handles cannot tell).
template <class Call>
int record_completion(const char* name, int count, MPI_Request requests[], Call call)
{
  std::vector<int> done_indices;
  int rank = recording_rank();
  if (rank < 0 || !requests || count < 0)
    return call(done_indices);
  std::vector<MPI_Request> before(requests, requests + count);
  std::vector<int> ids;
  for (MPI_Request r : before)
    ids.push_back(request_id(rank, r));
  g_recorder->write(rank, Event({{"call", name}, {"reqs", ids}}));
  int err = call(done_indices);
  std::vector<int> done;
  for (int i : done_indices)
    if (i >= 0 && i < count && ids[static_cast<std::size_t>(i)] >= 0)
      done.push_back(ids[static_cast<std::size_t>(i)]);
  for (int i = 0; i < count; ++i)
    forget_request(rank, before[static_cast<std::size_t>(i)], requests[i]);
  if (!done.empty())
    g_recorder->write(rank, Event({{"call", "completed"}, {"reqs", done}}));
  g_recorder->returned(rank);
  return err;
}

// The indices MPI_Waitsome and MPI_Testsome completed.
void add_some(std::vector<int>& done, int outcount, const int indices[])
{
  for (int i = 0; indices && outcount != MPI_UNDEFINED && i < outcount; ++i)
    done.push_back(indices[i]);
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Wait(MPI_Request* request, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !request)
    return PMPI_Wait(request, status);
  MPI_Request before = *request;
  int id = request_id(rank, before);
  g_recorder->write(rank, Event({{"call", "wait"}, {"req", id}}));
  CompletionStatus completion(status, g_recorder->wants_completions());
  int err = PMPI_Wait(request, completion.get());
  forget_request(rank, before, *request);
  completion.report(rank, id, err);
  return err;
}

int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !request)
    return PMPI_Test(request, flag, status);
  MPI_Request before = *request;
  int id = request_id(rank, before);
  g_recorder->write(rank, Event({{"call", "test"}, {"req", id}}));
  CompletionStatus completion(status, g_recorder->wants_completions());
  int err = PMPI_Test(request, flag, completion.get());
  forget_request(rank, before, *request);
  completion.report(rank, id, err, flag && *flag);
  return err;
}

int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[])
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !requests || count < 0)
    return PMPI_Waitall(count, requests, statuses);
  std::vector<MPI_Request> before(requests, requests + count);
  std::vector<int> ids;
  for (MPI_Request r : before)
    ids.push_back(request_id(rank, r));
  g_recorder->write(rank, Event({{"call", "waitall"}, {"reqs", ids}}));
  bool own_statuses = statuses == MPI_STATUSES_IGNORE && count > 0 && g_recorder->wants_completions();
  std::vector<MPI_Status> own(own_statuses ? static_cast<std::size_t>(count) : 0);
  MPI_Status* used = own_statuses ? own.data() : statuses;
  int err = PMPI_Waitall(count, requests, used);
  std::vector<Completion> done;
  for (int i = 0; i < count; ++i) {
    auto k = static_cast<std::size_t>(i);
    forget_request(rank, before[k], requests[i]);
    if (used != MPI_STATUSES_IGNORE && ids[k] >= 0)  // not MPI_REQUEST_NULL, or one started before recording
      done.push_back(received(ids[k], used[i]));
  }
  g_recorder->returned(rank, done);
  return err;
}

int MPI_Request_free(MPI_Request* request)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !request)
    return PMPI_Request_free(request);
  MPI_Request before = *request;
  g_recorder->write(rank, Event({{"call", "request_free"}, {"req", request_id(rank, before)}}));
  g_recorder->rank(rank).cancels.erase(before);  // freed: the program never learns the outcome
  int err = PMPI_Request_free(request);
  forget_request(rank, before, *request);
  g_recorder->returned(rank);
  return err;
}

// The event names the request; the completion call that retires it then
// writes whether the cancel succeeded (forget_request), which depends on the
// timing (a send is withdrawn only if its target has not matched it).
int MPI_Cancel(MPI_Request* request)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !request)
    return PMPI_Cancel(request);
  g_recorder->write(rank, Event({{"call", "cancel"}, {"req", request_id(rank, *request)}}));
  int err = PMPI_Cancel(request);
  if (err == MPI_SUCCESS)
    if (progsim::mpi::RequestPtr r = progsim::mpi::MpiModel::instance().requests().find(*request))
      g_recorder->rank(rank).cancels[*request] = r;
  g_recorder->returned(rank);
  return err;
}

// Written after the call, with its flag (informative, as MPI_Iprobe's): it
// never blocks and retires nothing (MPI-4.1 §3.7.3), so a replay makes the
// same call on the same request, whatever flag it sees there.
int MPI_Request_get_status(MPI_Request request, int* flag, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Request_get_status(request, flag, status);
  Event event = {{"call", "request_get_status"}, {"req", request_id(rank, request)}, {"flag", 0}};
  until_returned(rank, event);
  int err = PMPI_Request_get_status(request, flag, status);
  returned_from(rank);
  event["flag"] = flag && *flag ? 1 : 0;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

int MPI_Waitany(int count, MPI_Request requests[], int* index, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  return record_completion("waitany", count, requests, [&](std::vector<int>& done) {
    int err = PMPI_Waitany(count, requests, index, status);
    if (index && *index != MPI_UNDEFINED)
      done.push_back(*index);
    return err;
  });
}

int MPI_Waitsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  PROGSIM_WRAPPER();
  return record_completion("waitsome", incount, requests, [&](std::vector<int>& done) {
    int err = PMPI_Waitsome(incount, requests, outcount, indices, statuses);
    if (outcount)
      add_some(done, *outcount, indices);
    return err;
  });
}

int MPI_Testany(int count, MPI_Request requests[], int* index, int* flag, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  return record_completion("testany", count, requests, [&](std::vector<int>& done) {
    int err = PMPI_Testany(count, requests, index, flag, status);
    if (flag && *flag && index && *index != MPI_UNDEFINED)
      done.push_back(*index);
    return err;
  });
}

int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[])
{
  PROGSIM_WRAPPER();
  return record_completion("testall", count, requests, [&](std::vector<int>& done) {
    int err = PMPI_Testall(count, requests, flag, statuses);
    for (int i = 0; flag && *flag && i < count; ++i)
      done.push_back(i);
    return err;
  });
}

int MPI_Testsome(int incount, MPI_Request requests[], int* outcount, int indices[], MPI_Status statuses[])
{
  PROGSIM_WRAPPER();
  return record_completion("testsome", incount, requests, [&](std::vector<int>& done) {
    int err = PMPI_Testsome(incount, requests, outcount, indices, statuses);
    if (outcount)
      add_some(done, *outcount, indices);
    return err;
  });
}

}  // extern "C"
