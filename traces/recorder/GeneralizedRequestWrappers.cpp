// Generalized requests (MPI-4.1 §13.2): MPI_Grequest_start and
// MPI_Grequest_complete, and the program's query, free and cancel functions,
// which MPI runs inside the calls that retire, free or cancel the request
// (MPI_Wait, MPI_Test..., MPI_Request_free, MPI_Cancel, or
// MPI_Grequest_complete of a freed request). The calls those functions make
// cost time inside that call (MPI_Status_set_elements in query_fn), so the
// recorder hands MPI functions of its own that mark the program's: their
// calls are recorded where they happen, after the event of the call that
// ran them, as a `grequest_callback` event and the calls' events with
// "in": "query_fn" (...) (Recorder::emit). A replay makes them from its own
// functions (docs/traces.md, Replay).
#include "traces/recorder/RecorderInternals.hpp"

#include "sim/Rank.hpp"

#include <map>
#include <utility>

namespace progsim::traces::recorder {

namespace {

// The program's functions and state of one generalized request, which the
// recorder's own functions call.
struct ProgramFunctions {
  MPI_Grequest_query_function* query;
  MPI_Grequest_free_function* free;
  MPI_Grequest_cancel_function* cancel;
  void* extra_state;
  int rank;
  int req;  // the request's id in the trace
};

// By rank and request id until free_fn ran. Not the recorder's: a request
// outlives the recording if the run ends first (a deadlock), and map
// nodes do not move, so MPI keeps a pointer to one as the extra state.
std::map<std::pair<int, int>, ProgramFunctions>& registry()
{
  static std::map<std::pair<int, int>, ProgramFunctions> functions;
  return functions;
}

// While the program's function runs: its calls are marked with it. Inside
// another program callback (an error handler's MPI_Wait, another
// generalized request's function) nothing is marked: those calls are
// refused as any callback's (WrapperEntry).
class InCallback {
public:
  InCallback(const char* fn, const ProgramFunctions& functions)
  {
    sim::Rank* rank = g_recorder ? sim::calling_rank() : nullptr;
    if (!rank || rank->id() != functions.rank)
      return;
    const RankRecord& record = g_recorder->rank(rank->id());
    if (record.callback_fn || record.in_callback > 0 || record.in_finalize_callback > 0)
      return;
    rank_ = rank->id();
    g_recorder->enter_grequest_callback(rank_, fn, functions.req, rank->program_callbacks());
  }
  ~InCallback()
  {
    if (rank_ >= 0 && g_recorder)
      g_recorder->leave_grequest_callback(rank_);
  }
  InCallback(const InCallback&) = delete;
  InCallback& operator=(const InCallback&) = delete;

private:
  int rank_ = -1;
};

int query_fn(void* extra_state, MPI_Status* status)
{
  const ProgramFunctions& functions = *static_cast<ProgramFunctions*>(extra_state);
  InCallback marked("query_fn", functions);
  return functions.query(functions.extra_state, status);
}

int free_fn(void* extra_state)
{
  ProgramFunctions functions = *static_cast<ProgramFunctions*>(extra_state);
  int err;
  {
    InCallback marked("free_fn", functions);
    err = functions.free(functions.extra_state);
  }
  registry().erase({functions.rank, functions.req});  // called once per request (MPI-4.1 §13.2)
  return err;
}

int cancel_fn(void* extra_state, int complete)
{
  const ProgramFunctions& functions = *static_cast<ProgramFunctions*>(extra_state);
  InCallback marked("cancel_fn", functions);
  return functions.cancel(functions.extra_state, complete);
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;

extern "C" {

int MPI_Grequest_start(MPI_Grequest_query_function* query, MPI_Grequest_free_function* free,
                       MPI_Grequest_cancel_function* cancel, void* extra_state, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Grequest_start(query, free, cancel, extra_state, request);
  int id = next_request(rank);
  g_recorder->write(rank, Event({{"call", "grequest_start"}, {"req", id}}));
  int err;
  if (!query || !free || !cancel || !request) {
    err = PMPI_Grequest_start(query, free, cancel, extra_state, request);  // fails: a `failed` event follows
  } else {
    ProgramFunctions& functions = registry()[{rank, id}] = {query, free, cancel, extra_state, rank, id};
    err = PMPI_Grequest_start(query_fn, free_fn, cancel_fn, &functions, request);
    if (err == MPI_SUCCESS) {
      bind_request(rank, id, *request);
      g_recorder->rank(rank).grequests[*request] = id;
    } else {
      registry().erase({rank, id});
    }
  }
  g_recorder->returned(rank, {}, err != MPI_SUCCESS);
  return err;
}

// Names the request by its id from MPI_Grequest_start: the program may have
// freed its handle (MPI_Request_free) and complete it by a copy.
int MPI_Grequest_complete(MPI_Request request)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Grequest_complete(request);
  auto& grequests = g_recorder->rank(rank).grequests;
  auto found = grequests.find(request);
  int id = found == grequests.end() ? -1 : found->second;
  g_recorder->write(rank, Event({{"call", "grequest_complete"}, {"req", id}}));
  int err = PMPI_Grequest_complete(request);
  if (err == MPI_SUCCESS)
    grequests.erase(request);
  g_recorder->returned(rank, {}, err != MPI_SUCCESS);
  return err;
}

}  // extern "C"
