// The recording's state: its outputs (Recorder) and each rank's request,
// communicator and local-call record; start_recording and stop_recording.
#include "traces/Recorder.hpp"
#include "traces/recorder/RecorderInternals.hpp"

#include "MpiModel.hpp"
#include "sim/ForkedChild.hpp"
#include "sim/ProgramCallHook.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <cstring>

namespace progsim::traces::recorder {

namespace {

// The members of communicator `id` of `rank`, which the OTF2 export asks for.
Otf2Export::CommView comm_members(int rank, int id)
{
  MPI_Comm handle = id == 0 ? MPI_COMM_WORLD : id == 1 ? MPI_COMM_SELF : MPI_COMM_NULL;
  if (id > 1) {
    auto& handles = g_recorder->rank(rank).comm_handles;
    auto found = handles.find(id);
    if (found == handles.end())
      return {};
    handle = found->second;
  }
  const mpi::Communicator* c = mpi::MpiModel::instance().communicators().find(handle, rank);
  if (!c || c->is_inter())
    return {};
  return {&c->group->world_ranks(), c->context_id, c->my_rank};
}

}  // namespace

Recorder::Recorder(const std::string& path, const std::string& otf2_dir, int nranks, const Event& about)
    : ranks_(static_cast<std::size_t>(nranks))
{
  if (!path.empty())
    writer_ = std::make_unique<TraceWriter>(path, nranks, about);
  if (!otf2_dir.empty())
    otf2_ = std::make_unique<Otf2Export>(otf2_dir, nranks, comm_members);
}

void Recorder::write(int rank_id, const Event& event)
{
  ++rank(rank_id).written;
  if (rank(rank_id).in_finalize_callback > 0) {
    // Inside MPI_Finalize's call in the OTF2 export, which has no nested calls.
    Event marked = event;
    marked["in"] = "MPI_Finalize";
    emit(rank_id, marked);
    return;
  }
  emit(rank_id, event);
  // A generalized request's callback's calls are inside the call that ran
  // it in the OTF2 export too.
  if (otf2_ && !rank(rank_id).callback_fn)
    otf2_->call(rank_id, now(), event);
}

void Recorder::emit(int rank_id, const Event& event)
{
  flush_local(rank_id);
  RankRecord& r = rank(rank_id);
  if (r.callback_fn) {
    // A call of a generalized request's callback (or a store it made):
    // after the event naming the callback, marked with it.
    if (!r.callback_named) {
      r.callback_named = true;
      emit_one(rank_id, Event({{"call", "grequest_callback"}, {"fn", r.callback_fn}, {"req", r.callback_req}}));
    }
    Event marked = event;
    marked["in"] = r.callback_fn;
    emit_one(rank_id, marked);
    return;
  }
  emit_one(rank_id, event);
}

void Recorder::emit_one(int rank_id, const Event& event)
{
  RankRecord& r = rank(rank_id);
  if (writer_)
    writer_->write(rank_id, event);
  // An RMA operation the rank issues from now on is this event's write.
  sim::memory::MemoryWatch::instance().set_trace_position(rank_id, r.events++);
}

void Recorder::enter_grequest_callback(int rank_id, const char* fn, int req, std::size_t level)
{
  flush_local(rank_id);  // the program's local calls before the call that runs the callback
  RankRecord& r = rank(rank_id);
  r.callback_fn = fn;
  r.callback_req = req;
  r.callback_level = level;
  r.callback_named = false;
}

void Recorder::leave_grequest_callback(int rank_id)
{
  flush_local(rank_id);  // the callback's own, marked
  RankRecord& r = rank(rank_id);
  r.callback_fn = nullptr;
  r.callback_req = -1;
  r.callback_level = 0;
}

void Recorder::write_failed(int rank_id, const char* call, const char* error)
{
  emit(rank_id, Event({{"call", "failed"}, {"name", call}, {"error", error}}));
}

void Recorder::returned(int rank_id, const std::vector<Completion>& done, bool failed)
{
  if (otf2_ && rank(rank_id).in_finalize_callback == 0 && !rank(rank_id).callback_fn)
    otf2_->returned(rank_id, now(), done, failed);
}

void Recorder::finish(double end)
{
  flush_all();
  write_endings();
  if (otf2_)
    otf2_->close(end);
}

void Recorder::local(int rank_id, const char* name, bool interacting)
{
  RankRecord& r = rank(rank_id);
  if (r.in_finalize_callback > 0) {  // a local wrapper's call in a delete callback of MPI_Finalize
    finalize_local(rank_id, name, interacting);
    return;
  }
  if (r.local_name && std::strcmp(r.local_name, name) != 0)
    flush_local(rank_id);
  r.local_name = name;
  r.local_interacting = interacting;
  ++r.local_repeat;
}

namespace {
// A `local` event (Recorder::local; `interacting`: its replay executes the
// rank's deferred costs too).
Event local_event(const char* name, bool interacting)
{
  Event event = {{"call", "local"}, {"name", name}};
  if (interacting)
    event["kind"] = "interacting";
  return event;
}
}  // namespace

void Recorder::flush_local(int rank_id)
{
  RankRecord& r = rank(rank_id);
  if (!r.local_name)
    return;
  Event event = local_event(r.local_name, r.local_interacting);
  if (r.local_repeat > 1)
    event["repeat"] = r.local_repeat;
  r.local_name = nullptr;
  r.local_repeat = 0;
  emit(rank_id, event);
}

void Recorder::finalize_local(int rank_id, const char* name, bool interacting)
{
  Event event = local_event(name, interacting);
  event["in"] = "MPI_Finalize";
  emit(rank_id, event);
}

void Recorder::flush_all()
{
  for (std::size_t i = 0; i < ranks_.size(); ++i)
    flush_local(static_cast<int>(i));
}

// Memory waits (docs/traces.md, "Memory waits"). A rank that blocked
// polling watched memory (a flag in a window, MPI-4.1 §12.7 Example 12.x)
// waited for another rank's write: a store of that rank's program, or an
// RMA operation's data landing. The wait's length depends on the policy
// (under weak progress it may never end), so it is recorded as what it
// waited for, not as time: `memory_wait` names the writer's event, which a
// store gets at its place among the writer's calls (`store`, one per
// watched range between two of the writer's events). A read that saw
// another rank's write without blocking names it too. A wake whose write a
// trace does not hold (a receive into watched memory, a watch removed) is
// refused.
namespace {
// A wait on `poll` for the write `cause` (unknown: writer and event -1, a
// wait that nothing ended).
Event memory_wait_event(const sim::memory::PollInfo& poll, const sim::memory::WriteCause& cause)
{
  return Event({{"call", "memory_wait"},
                {"writer", cause.rank},
                {"event", cause.event},
                {"watch", poll.description},
                {"offset", poll.offset}});
}
}  // namespace

long long Recorder::stored(int rank_id, const std::string& watch)
{
  emit(rank_id, Event({{"call", "store"}, {"watch", watch}}));
  return rank(rank_id).events - 1;  // after a `grequest_callback` event emit may have written first
}

void Recorder::waited(int rank_id, const sim::memory::PollInfo& poll, const sim::memory::WriteCause& cause)
{
  if (!cause.known()) {
    emit(rank_id, Event({{"call", "unsupported"},
                         {"name", "busy-waiting on watched memory"},
                         {"why", "the rank polled memory until a write that no event holds (a receive into it, "
                                 "a watch removed) woke it"}}));
    return;
  }
  emit(rank_id, memory_wait_event(poll, cause));
}

void Recorder::write_endings()
{
  sim::Simulation* simulation = sim::Simulation::current();
  for (int r = 0; r < static_cast<int>(ranks_.size()); ++r) {
    // Still in a call whose event is written when it returns (a livelock
    // held its MPI_Iprobe loop): its replay makes that call until it
    // finds what the program's never found.
    if (!rank(r).unreturned.is_null()) {
      Event event = std::move(rank(r).unreturned);
      rank(r).unreturned = nullptr;
      event["unreturned"] = 1;
      emit(r, event);
    }
    // Still polling (deadlock, time limit): a wait that nothing ended.
    if (const sim::memory::PollInfo* poll = sim::memory::MemoryWatch::instance().poll_info(r))
      emit(r, memory_wait_event(*poll, sim::memory::WriteCause{}));
    // main's status (its return value, or exit's): a replay's main ends
    // with it. Set only when main ended (after MPI_Finalize or without it,
    // which aborts the run), never by a crash.
    if (simulation && r < simulation->size() && simulation->rank(r).exit_code != 0)
      emit(r, Event({{"call", "exit"}, {"code", simulation->rank(r).exit_code}}));
  }
}

double Recorder::now()
{
  return sim::calling_rank()->clock().now();
}

std::unique_ptr<Recorder> g_recorder;

int recording_rank()
{
  // A child a rank forked is not an MPI process and writes none of the
  // run's outputs (sim/ForkedChild.hpp): its sleeps and its MPI call (which
  // ends it) are not the rank's, though it shares the trace file.
  if (!g_recorder || sim::ForkedChild::active())
    return -1;
  sim::Rank* rank = sim::calling_rank();
  return rank && g_recorder->rank(rank->id()).in_callback == 0 ? rank->id() : -1;
}

int comm_id(int rank, MPI_Comm comm)
{
  if (comm == MPI_COMM_WORLD)
    return 0;
  if (comm == MPI_COMM_SELF)
    return 1;
  auto& comms = g_recorder->rank(rank).comms;
  auto found = comms.find(comm);
  return found == comms.end() ? -1 : found->second;
}

int session_id(int rank, MPI_Session session)
{
  auto& sessions = g_recorder->rank(rank).sessions;
  auto found = sessions.find(session);
  return found == sessions.end() ? -1 : found->second;
}

int next_request(int rank)
{
  return g_recorder->rank(rank).next_request++;
}
void bind_request(int rank, int id, MPI_Request handle)
{
  if (handle != MPI_REQUEST_NULL)
    g_recorder->rank(rank).requests[handle] = id;
}
int request_id(int rank, MPI_Request handle)
{
  auto& requests = g_recorder->rank(rank).requests;
  auto found = requests.find(handle);
  return found == requests.end() ? -1 : found->second;
}
void forget_request(int rank, MPI_Request before, MPI_Request after)
{
  RankRecord& record = g_recorder->rank(rank);
  // Retired (MPI_REQUEST_NULL, or a persistent request made inactive): the
  // outcome of its cancel is settled, as MPI_Test_cancelled would tell the
  // program (MPI-4.1 §3.8.4), and a replay must reach the same.
  if (auto cancel = record.cancels.find(before);
      cancel != record.cancels.end() && (after == MPI_REQUEST_NULL || !cancel->second->active())) {
    g_recorder->write(rank, Event({{"call", "cancelled"},
                                   {"req", request_id(rank, before)},
                                   {"flag", cancel->second->cancelled ? 1 : 0}}));
    record.cancels.erase(cancel);
  }
  if (after == MPI_REQUEST_NULL)
    record.requests.erase(before);
}

void until_returned(int rank, Event event)
{
  g_recorder->rank(rank).unreturned = std::move(event);
}

void returned_from(int rank)
{
  g_recorder->rank(rank).unreturned = nullptr;
}

int new_comm(int rank)
{
  return g_recorder->rank(rank).next_comm++;
}
void bind_comm(int rank, int id, MPI_Comm handle)
{
  if (handle != MPI_COMM_NULL) {
    g_recorder->rank(rank).comms[handle] = id;
    g_recorder->rank(rank).comm_handles[id] = handle;
  }
}

int window_id(int rank, MPI_Win win)
{
  auto& windows = g_recorder->rank(rank).windows;
  auto found = windows.find(win);
  return found == windows.end() ? -1 : found->second;
}

}  // namespace progsim::traces::recorder

namespace progsim::traces {

void start_recording(const std::string& path, const std::string& otf2_dir, int nranks,
                     const nlohmann::ordered_json& about)
{
  recorder::g_recorder = std::make_unique<recorder::Recorder>(path, otf2_dir, nranks, about);
  sim::memory::MemoryWatch::instance().set_trace_recorder(
      [](int rank, const std::string& watch) {
        return recorder::g_recorder ? recorder::g_recorder->stored(rank, watch) : -1LL;
      },
      [](int rank, const sim::memory::PollInfo& poll, const sim::memory::WriteCause& cause) {
        if (recorder::g_recorder)
          recorder::g_recorder->waited(rank, poll, cause);
      });
  sim::set_program_call_hook(recorder::program_call);
  sim::set_failed_call_hook(recorder::failed_call);
}

void stop_recording(double end)
{
  sim::set_program_call_hook(nullptr);
  sim::set_failed_call_hook(nullptr);
  sim::memory::MemoryWatch::instance().set_trace_recorder(nullptr, nullptr);
  std::unique_ptr<recorder::Recorder> stopped = std::move(recorder::g_recorder);
  if (stopped)
    stopped->finish(end);
}

}  // namespace progsim::traces
