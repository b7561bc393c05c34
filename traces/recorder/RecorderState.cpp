// The recording's state: its outputs (Recorder) and each rank's request,
// communicator and local-call record; start_recording and stop_recording.
#include "traces/Recorder.hpp"
#include "traces/recorder/RecorderInternals.hpp"

#include "MpiModel.hpp"
#include "sim/ProgramCallHook.hpp"
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
  polled(rank_id);
  flush_local(rank_id);
  ++rank(rank_id).written;
  if (rank(rank_id).in_finalize_callback > 0) {
    // Inside MPI_Finalize's call in the OTF2 export, which has no nested calls.
    Event marked = event;
    marked["in"] = "MPI_Finalize";
    if (writer_)
      writer_->write(rank_id, marked);
    return;
  }
  if (writer_)
    writer_->write(rank_id, event);
  if (otf2_)
    otf2_->call(rank_id, now(), event);
}

void Recorder::write_failed(int rank_id, const char* call, const char* error)
{
  if (writer_)
    writer_->write(rank_id, Event({{"call", "failed"}, {"name", call}, {"error", error}}));
}

void Recorder::returned(int rank_id, const std::vector<Completion>& done, bool failed)
{
  if (otf2_ && rank(rank_id).in_finalize_callback == 0)
    otf2_->returned(rank_id, now(), done, failed);
}

void Recorder::finish(double end)
{
  for (std::size_t i = 0; i < ranks_.size(); ++i)
    polled(static_cast<int>(i));
  flush_all();
  if (otf2_)
    otf2_->close(end);
}

void Recorder::local(int rank_id, const char* name, bool interacting)
{
  polled(rank_id);
  RankRecord& r = rank(rank_id);
  if (r.local_name && std::strcmp(r.local_name, name) != 0)
    flush_local(rank_id);
  r.local_name = name;
  r.local_interacting = interacting;
  ++r.local_repeat;
}

void Recorder::flush_local(int rank_id)
{
  RankRecord& r = rank(rank_id);
  if (!r.local_name)
    return;
  Event event = {{"call", "local"}, {"name", r.local_name}};
  if (r.local_interacting)
    event["kind"] = "interacting";
  if (r.local_repeat > 1)
    event["repeat"] = r.local_repeat;
  r.local_name = nullptr;
  r.local_repeat = 0;
  if (writer_)
    writer_->write(rank_id, event);
}

void Recorder::flush_all()
{
  for (std::size_t i = 0; i < ranks_.size(); ++i)
    flush_local(static_cast<int>(i));
}

// A rank that blocked polling watched memory (a flag in a window, MPI-4.1
// §12.7 Example 12.x) waited for another rank's write, which no event
// holds: the wait's length depends on the policy, so recording it as
// computation would replay the recording's timing under every policy.
// The trace refuses it instead, before the rank's next event.
void Recorder::polled(int rank_id)
{
  std::uint64_t blocked = sim::memory::MemoryWatch::instance().blocked_polls(rank_id);
  RankRecord& r = rank(rank_id);
  if (blocked == r.blocked_polls)
    return;
  r.blocked_polls = blocked;
  flush_local(rank_id);
  Event event = {{"call", "unsupported"},
                 {"name", "busy-waiting on watched memory"},
                 {"why", "the rank polled memory until another rank wrote it, and when that write lands depends on "
                         "the replay's policy and platform"}};
  if (writer_)
    writer_->write(rank_id, event);
}

double Recorder::now()
{
  return sim::calling_rank()->clock().now();
}

std::unique_ptr<Recorder> g_recorder;

int recording_rank()
{
  if (!g_recorder)
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
  sim::set_program_call_hook(recorder::program_call);
  sim::set_failed_call_hook(recorder::failed_call);
}

void stop_recording(double end)
{
  sim::set_program_call_hook(nullptr);
  sim::set_failed_call_hook(nullptr);
  std::unique_ptr<recorder::Recorder> stopped = std::move(recorder::g_recorder);
  if (stopped)
    stopped->finish(end);
}

}  // namespace progsim::traces
