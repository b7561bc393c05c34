// The replay of generalized requests (MPI-4.1 §13.2): a request of the
// replay's own query, free and cancel functions where the program started
// one, completed where the program called MPI_Grequest_complete, and
// retired by the completion events as any request. MPI runs the replay's
// functions where it ran the program's (in the wait or test that retires
// the request, MPI_Request_free, MPI_Cancel, MPI_Grequest_complete), and
// each makes the calls the program's made there (MPI_Status_set_elements in
// query_fn: the cost of a call inside the MPI_Wait), read after the event
// of the call that ran it (RankReplay::run). A request completes only by
// the rank's own MPI_Grequest_complete, which a replay makes at the same
// place under any policy, so its functions run in the same calls; where
// they do not (an MPI_Waitany over it and other requests retired another
// under another policy), the calls are made as that call returns: their
// cost is replayed once, a little earlier or later.
#include "traces/replay/RankReplay.hpp"

#include "sim/memory/MemoryWatch.hpp"

#include <utility>

namespace progsim::traces {

void RankReplay::replay_grequest_start(const TraceEvent& e)
{
  int id = e.small("req");
  Grequest& state = grequests_[id] = {this, id};
  MPI_Request handle = MPI_REQUEST_NULL;
  check(PMPI_Grequest_start(&RankReplay::replay_query_fn, &RankReplay::replay_free_fn,
                            &RankReplay::replay_cancel_fn, &state, &handle));
  keep_request(e, handle);
  grequest_handles_[id] = handle;
}

// By the handle MPI_Grequest_start gave, whether or not the program freed
// it since (MPI_Request_free: the request completes here all the same).
void RankReplay::replay_grequest_complete(const TraceEvent& e)
{
  int id = e.small("req");
  auto found = grequest_handles_.find(id);
  if (found == grequest_handles_.end()) {
    if (id >= 0)
      fail("generalized request id " + std::to_string(id) + " was not started earlier in rank " +
           std::to_string(rank_.id()) + "'s events");
    check(PMPI_Grequest_complete(MPI_REQUEST_NULL));  // the program's failed: a `failed` event follows
    return;
  }
  MPI_Request handle = found->second;
  grequest_handles_.erase(found);
  check(PMPI_Grequest_complete(handle));
}

// Read with the call before it (RankReplay::run); met here only as a rank's
// first event, where no call ran it: its calls follow as ordinary events.
void RankReplay::replay_grequest_callback(const TraceEvent&) {}

int RankReplay::replay_query_fn(void* extra, MPI_Status*)
{
  auto* state = static_cast<Grequest*>(extra);
  state->self->run_callback("query_fn", state->req);
  return MPI_SUCCESS;
}

int RankReplay::replay_free_fn(void* extra)
{
  auto* state = static_cast<Grequest*>(extra);
  RankReplay* self = state->self;
  int req = state->req;
  self->run_callback("free_fn", req);
  self->grequests_.erase(req);  // called once per request
  return MPI_SUCCESS;
}

int RankReplay::replay_cancel_fn(void* extra, int)
{
  auto* state = static_cast<Grequest*>(extra);
  state->self->run_callback("cancel_fn", state->req);
  return MPI_SUCCESS;
}

void RankReplay::run_callback(const char* fn, int req)
{
  if (callback_calls_.empty() || callback_calls_.front().fn != fn || callback_calls_.front().req != req)
    return;  // the program's made no call here, or ran elsewhere (callbacks_left)
  std::vector<TraceEvent> events = std::move(callback_calls_.front().events);
  callback_calls_.erase(callback_calls_.begin());
  try {
    perform_nested(events, event_);
  } catch (const TraceError&) {
    // Not through the MPI call's frames: raised when it returns.
    if (!callback_error_)
      callback_error_ = std::current_exception();
  }
}

void RankReplay::callbacks_left()
{
  if (callback_error_)
    std::rethrow_exception(std::exchange(callback_error_, nullptr));
  std::vector<CallbackCalls> left = std::move(callback_calls_);
  callback_calls_.clear();
  for (const CallbackCalls& calls : left)
    perform_nested(calls.events, event_);
}

void RankReplay::perform_nested(const std::vector<TraceEvent>& events, const TraceEvent* outer)
{
  struct Restore {
    RankReplay& self;
    const TraceEvent* outer;
    ~Restore()
    {
      self.event_ = outer;
      if (!outer)
        return;
      sim::memory::MemoryWatch::instance().set_trace_position(self.rank_.id(), outer->index);
      self.rank_.trace_position.line = outer->line;
      self.rank_.trace_position.event = &outer->call;
    }
  } restore{*this, outer};
  for (const TraceEvent& e : events) {
    event_ = &e;
    rank_.trace_position.line = e.line;
    rank_.trace_position.event = &e.call;
    sim::memory::MemoryWatch::instance().set_trace_position(rank_.id(), e.index);
    perform(e);
  }
}

}  // namespace progsim::traces
