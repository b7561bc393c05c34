#include "traces/replay/RankReplay.hpp"

#include "traces/CommunicatorSizes.hpp"
#include "traces/MpiNames.hpp"
#include "traces/replay/Scratch.hpp"

#include "MpiModel.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <climits>
#include <exception>
#include <unordered_set>

namespace progsim::traces {

RankReplay::RankReplay(sim::Rank& rank, const std::string& path, const TraceInfo& info)
    : rank_(rank), events_(open_rank_events(path, info, rank.id())), reduction_items_(rank.id())
{
  comms_[0] = MPI_COMM_WORLD;
  comms_[1] = MPI_COMM_SELF;
}

void RankReplay::run()
{
  TraceEvent& event = current_;
  TraceEvent& ahead = ahead_;
  // Explanations name the trace line being replayed; unset on every way out
  // (the strings it points to end with this call).
  struct PositionGuard {
    sim::Rank& rank;
    ~PositionGuard()
    {
      rank.trace_position.file = nullptr;
      rank.trace_position.event = nullptr;
      rank.trace_position.line = 0;
    }
  } guard{rank_};
  rank_.trace_position.file = &events_->file();
  rank_.trace_position.kept_file = events_->file();
  rank_.trace_position.separator = events_->position_separator();
  rank_.trace_position.event = &event.call;
  // One event read ahead: a `failed` event changes how the call before it
  // is replayed. An error in reading it waits until that call is replayed.
  std::exception_ptr ahead_error;
  long long read = 0;  // the rank's events so far: the next one's index
  auto read_ahead = [&] {
    try {
      if (!events_->next(ahead))
        return false;
      ahead.index = read++;
      return true;
    } catch (const TraceError&) {
      ahead_error = std::current_exception();
      return false;
    }
  };
  bool more = read_ahead();
  while (more) {
    event = std::move(ahead);
    more = read_ahead();
    while (event.call == "finalize" && more && ahead.has("in")) {
      in_finalize_.push_back(std::move(ahead));
      more = read_ahead();
    }
    // The calls of generalized requests' functions that this call ran.
    while (more && ahead.call == "grequest_callback") {
      CallbackCalls calls{ahead.fields().at("fn").get<std::string>(), ahead.small("req"), {}};
      more = read_ahead();
      while (more && ahead.has("in") && ahead.fields().at("in") == calls.fn) {
        calls.events.push_back(std::move(ahead));
        more = read_ahead();
      }
      callback_calls_.push_back(std::move(calls));
    }
    event_ = &event;
    rank_.trace_position.line = event.line;
    // An RMA operation of this event is the write a memory_wait may name.
    sim::memory::MemoryWatch::instance().set_trace_position(rank_.id(), event.index);
    try {
      if (more && ahead.call == "failed" && event.call != "failed") {
        replay_failed_call(event, ahead);
        more = read_ahead();
      } else {
        perform(event);
      }
    } catch (const ScratchTooLarge& large) {
      fail("its buffers need " + std::to_string(large.bytes) + " bytes, beyond what replay supports (" +
           std::to_string(Scratch::kLargest) + ")");
    } catch (const std::bad_alloc&) {
      fail("not enough memory for its buffers");
    }
    callbacks_left();
  }
  if (ahead_error)
    std::rethrow_exception(ahead_error);
  if (rank_.mpi_initialized && !rank_.mpi_finalized)
    events_end_early();
}

void RankReplay::cannot_replay(const TraceEvent& e) const
{
  fail("event \"" + e.call + "\" cannot be replayed");
}

void RankReplay::events_end_early() const
{
  sim::diag(events_->file() + ": the events of rank " + std::to_string(rank_.id()) +
            " end before MPI_Finalize (a trace of a run that did not complete?)");
}

// The recorded call returned an error: what it did is not repeated (a
// failed MPI_Isend sent nothing; a replay's scratch buffers would make it
// succeed), only its cost, as an interacting call of the model that does
// nothing. MPI-4.1 §9.3: an erroneous call under MPI_ERRORS_RETURN leaves
// the state as the implementation allows; progsim's calls fail in their
// argument checks, before any effect. Except the errors of a completed
// receive: MPI_ERR_TRUNCATE (the message was received, its first bytes in
// the buffer, MPI-4.1 §3.2.4) and MPI_ERR_IN_STATUS (the requests
// completed, one with an error): the call is replayed, and fails as the
// program's did, the rank's communicators returning errors meanwhile (the
// program's MPI_Comm_set_errhandler is a `local` event). And
// MPI_ERR_RMA_SYNC: an RMA call outside the epoch it needs breaks a rule of
// the standard (MPI-4.1 §12.5), which the model reports as an error of the
// program besides returning it (rma/SyncErrors): the replay's windows are
// in the same epochs, so its call fails alike and its report has the same
// error (rma_semantics: an MPI_Put outside any epoch), the rank's windows
// returning errors meanwhile (MPI_Win_set_errhandler is a `local` event).
void RankReplay::replay_failed_call(const TraceEvent& call, const TraceEvent& failed)
{
  const std::string error = failed.fields().at("error").get<std::string>();
  if (error == "MPI_ERR_TRUNCATE" || error == "MPI_ERR_IN_STATUS" || error == "MPI_ERR_RMA_SYNC") {
    SavedErrhandlers saved;
    mpi::CommunicatorTable& table = mpi::MpiModel::instance().communicators();
    for (const mpi::Communicator* c : table.live_communicators(rank_.id()))
      if (mpi::Communicator* own = table.get(c->handle, rank_.id())) {
        saved.emplace_back(&own->errhandler, own->errhandler);
        own->errhandler = MPI_ERRORS_RETURN;
      }
    windows_returning_errors(saved);
    struct Restore {
      SavedErrhandlers& saved;
      bool& errors;
      ~Restore()
      {
        for (auto& [slot, handler] : saved)
          *slot = handler;
        errors = false;
      }
    } restore{saved, errors_recorded_};
    errors_recorded_ = true;
    perform(call);
    return;
  }
  int ignored = 0;
  if (call.call == "init" || !rank_.mpi_initialized || rank_.mpi_finalized)
    PMPI_Initialized(&ignored);
  else
    PMPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &ignored);
}

void RankReplay::perform(const TraceEvent& e)
{
  auto action = actions().find(e.call);
  if (action == actions().end())  // the reader validated the kind: a kind without an action cannot link
    cannot_replay(e);
  if (action->second.needs_mpi)
    ensure_initialized();
  (this->*action->second.perform)(e);
}

// One lookup per replayed event: its action, and whether it needs MPI.
const std::unordered_map<std::string, RankReplay::Action>& RankReplay::actions()
{
  // A trace may compute, sleep, make local calls (MPI_Initialized), store
  // into or wait on watched memory, or end main, before MPI_Init; the
  // initializations themselves and an unsupported event neither need it.
  // Every other event needs MPI.
  static const std::unordered_set<std::string> kWithoutMpi = {
      "compute", "exit", "init", "local", "memory_wait", "session_init", "sleep", "store", "unsupported"};
  static const std::unordered_map<std::string, Action> table = [] {
    std::unordered_map<std::string, Action> made = {
#define PROGSIM_TRACE_EVENT(kind, ...) {#kind, {&RankReplay::replay_##kind, true}},
#include "traces/TraceEvents.def"
#undef PROGSIM_TRACE_EVENT
    };
    for (auto& [kind, action] : made)
      action.needs_mpi = kWithoutMpi.count(kind) == 0;
    return made;
  }();
  return table;
}

void RankReplay::fail(const std::string& reason) const
{
  throw TraceError(events_->position(event_ ? event_->line : 0), 0, reason);
}

MPI_Comm RankReplay::comm(const TraceEvent& e) const
{
  return comm(e, "comm");
}

MPI_Comm RankReplay::comm(const TraceEvent& e, const char* key) const
{
  int id = e.small(key);
  auto found = comms_.find(id);
  if (found == comms_.end())
    fail("communicator id " + std::to_string(id) + " was not created earlier in rank " + std::to_string(rank_.id()) +
         "'s events");
  return found->second;
}

int RankReplay::comm_size(MPI_Comm handle) const
{
  return traces::comm_size(rank_.id(), handle);
}

int RankReplay::rank_field(const TraceEvent& e, const char* key, MPI_Comm c, bool receive) const
{
  int r = e.small(key);
  // MPI_ROOT: the root of a collective on an intercommunicator (the model
  // checks it is one).
  if (r == MPI_PROC_NULL || (receive && r == MPI_ANY_SOURCE) || (r == MPI_ROOT && std::string(key) == "root"))
    return r;
  int size = comm_size(c);
  if (r < 0 || r >= size)
    fail(std::string(key) + " " + std::to_string(r) + " is not a rank of communicator id " +
         std::to_string(e.small("comm")) + " (" + std::to_string(size) + " ranks)");
  return r;
}

int RankReplay::count(long long bytes) const
{
  if (bytes > INT_MAX)
    fail("a size of " + std::to_string(bytes) + " bytes is beyond what replay supports (2^31-1)");
  return static_cast<int>(bytes);
}

std::vector<int> RankReplay::counts(const nlohmann::json& list, int n, long long& total) const
{
  std::vector<int> out(static_cast<std::size_t>(n), 0);
  total = 0;
  if (!list.empty() && static_cast<int>(list.size()) != n)
    fail("a list of " + std::to_string(list.size()) + " sizes for a communicator of " + std::to_string(n) +
         " ranks");
  for (std::size_t i = 0; i < list.size(); ++i) {
    out[i] = count(list[i].get<long long>());
    total += out[i];
  }
  return out;
}

MPI_Datatype RankReplay::datatype(const TraceEvent& e) const
{
  MPI_Datatype type = predefined_datatype(e.string("dt"));
  if (type == MPI_DATATYPE_NULL)
    fail("unknown datatype \"" + e.fields().at("dt").get<std::string>() + "\"");
  return type;
}

MPI_Op RankReplay::op(const TraceEvent& e) const
{
  MPI_Op op = predefined_op(e.string("op"));
  if (op == MPI_OP_NULL)
    fail("unknown reduction operation \"" + e.fields().at("op").get<std::string>() + "\"");
  return op;
}

long long RankReplay::type_size(MPI_Datatype type) const
{
  auto t = mpi::MpiModel::instance().datatypes().find_live(type);
  return t ? t->size() : 1;
}

MPI_Request& RankReplay::request(int id)
{
  auto found = requests_.find(id);
  if (found == requests_.end())
    fail("request id " + std::to_string(id) + " was not started earlier in rank " + std::to_string(rank_.id()) +
         "'s events");
  return found->second;
}

MPI_Request RankReplay::request_or_null(const TraceEvent& e)
{
  int id = e.small("req");
  return id < 0 ? MPI_REQUEST_NULL : request(id);
}

MPI_Message RankReplay::take_message(int id)
{
  if (id == -1)
    return MPI_MESSAGE_NO_PROC;
  auto found = messages_.find(id);
  if (found == messages_.end())
    fail("message id " + std::to_string(id) + " was not matched by a probe earlier in rank " +
         std::to_string(rank_.id()) + "'s events");
  MPI_Message message = found->second;
  messages_.erase(found);
  return message;
}

// A trace without `init` (older readers, an imported trace) starts MPI at
// its first call; one of the Sessions Model's does not need it while a
// session is open (MPI-4.1 §11.3), as the program did not.
void RankReplay::ensure_initialized()
{
  if (!rank_.mpi_initialized && sessions_.empty())
    PMPI_Init(nullptr, nullptr);
}

void RankReplay::check(int err) const
{
  if (err != MPI_SUCCESS && !errors_recorded_)  // only reached with MPI_ERRORS_RETURN; the model raised the error already
    fail("the MPI call failed (error " + std::to_string(err) + ")");
}

}  // namespace progsim::traces
