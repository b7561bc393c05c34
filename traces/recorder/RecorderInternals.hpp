// What the recorder's files share (internal to traces/recorder/): the
// recording's state and each rank's ids (RecorderState.cpp), the fields the
// wrappers' events have in common (EventFields.cpp), and the prologue and
// record helpers every PMPI wrapper opens with. The wrappers are spread over
// one file per family of calls (*Wrappers.cpp), all in the progsim_trace
// library, which the launcher links before libprogsim.so (Recorder.hpp).
#pragma once

#include "traces/Otf2Export.hpp"
#include "traces/TraceWriter.hpp"

#include "sim/CallScope.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <mpi.h>

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi {
struct Request;
}

namespace progsim::traces::recorder {

using Event = nlohmann::ordered_json;

// What the recorder knows about one rank: its request and communicator ids.
struct RankRecord {
  int next_request = 0;
  int next_comm = 2;  // 0 MPI_COMM_WORLD, 1 MPI_COMM_SELF
  std::map<MPI_Request, int> requests;
  // Requests the program cancelled (MPI_Cancel), until a completion call
  // retires them: whether the cancel succeeded is written then.
  std::map<MPI_Request, std::shared_ptr<const mpi::Request>> cancels;
  int next_message = 0;
  std::map<MPI_Message, int> messages;  // matched by MPI_Mprobe/MPI_Improbe, until received
  std::map<MPI_Comm, int> comms;
  int next_session = 0;
  std::map<MPI_Session, int> sessions;  // MPI_Session_init's, until MPI_Session_finalize
  std::map<int, MPI_Comm> comm_handles;  // the reverse of comms (the OTF2 export asks by id)
  // Local calls (MPI_Wtime, MPI_Comm_rank, ...) in a row are one event with
  // a repeat count: busy loops on MPI_Wtime would otherwise fill the trace.
  const char* local_name = nullptr;
  bool local_interacting = false;
  long long local_repeat = 0;
  int in_callback = 0;  // wrappers entered from a program callback inside MPI (WrapperEntry)
  // Wrappers entered from an attribute delete callback that MPI_Finalize
  // runs: recorded, their events marked "in": "MPI_Finalize" (WrapperEntry).
  int in_finalize_callback = 0;
  // Generalized requests (MPI-4.1 §13.2), from MPI_Grequest_start to
  // MPI_Grequest_complete: a request the program freed (MPI_Request_free) is
  // completed by its old handle, which `requests` forgets at the free.
  std::map<MPI_Request, int> grequests;
  // The program's query, free or cancel function of generalized request
  // `callback_req` under way (GeneralizedRequestWrappers.cpp), made by the
  // MPI call whose event was written last: the events of the calls it makes
  // directly (at `callback_level` program callbacks deep, sim::Rank) are
  // marked "in": `callback_fn`, after a `grequest_callback` event naming it,
  // written before the first of them (`callback_named`).
  const char* callback_fn = nullptr;
  int callback_req = -1;
  std::size_t callback_level = 0;
  bool callback_named = false;
  // The event of the call under way that is written when it returns (it
  // holds what the call found: MPI_Iprobe's flag), null when none is: a run
  // that ends with the rank still in it (a livelock held it, the run
  // stopped) writes it then, marked "unreturned" (Recorder::write_endings).
  Event unreturned;
  // Windows, by per-rank id in creation order, and the memory the rank
  // attached to dynamic windows (by the window's job-wide number): an
  // origin names a target address by the region and its offset in it.
  int next_window = 0;
  std::map<MPI_Win, int> windows;
  struct Attached {
    const char* base;
    long long size;
    int region;  // the rank's attach number
  };
  std::map<int, std::vector<Attached>> attached;
  int next_region = 0;
  // Events in the rank's trace so far: the next one's index (a memory
  // wait names its write by the writer's event index, MemoryWatch).
  long long events = 0;
  // Events written (Recorder::write), and the program's call under way that
  // returns an error (sim::notify_failed_call): WrapperEntry marks the
  // call's event as failed when the wrapper returns.
  long long written = 0;
  const char* failed_call = nullptr;
  const char* failed_error = nullptr;
};

// The outputs of a recording (a progsim trace, an OTF2 archive) and every rank's record.
class Recorder {
public:
  Recorder(const std::string& path, const std::string& otf2_dir, int nranks, const Event& about);

  RankRecord& rank(int id) { return ranks_.at(static_cast<std::size_t>(id)); }

  void write(int rank_id, const Event& event);
  // The call whose event was written last returned `error`: a `failed`
  // event (progsim trace only; the OTF2 export learns it from returned()).
  void write_failed(int rank_id, const char* call, const char* error);
  // The call last written returned (completing `done`), or `failed` with an error.
  void returned(int rank_id, const std::vector<Completion>& done = {}, bool failed = false);
  // Whether the calls' completions are wanted (only the OTF2 export needs them).
  bool wants_completions() const { return otf2_ != nullptr; }
  void finish(double end);
  // `interacting`: the call is not a local query (sim::CallKind): it executes
  // the rank's deferred costs, and its replay must too.
  void local(int rank_id, const char* name, bool interacting = false);
  void flush_local(int rank_id);
  void flush_all();
  // A local call of an attribute delete callback that MPI_Finalize runs:
  // its own event, marked "in": "MPI_Finalize" (the calls of such a
  // callback are made by the replay's delete callback).
  void finalize_local(int rank_id, const char* name, bool interacting);
  // A generalized request's callback `fn` ("query_fn", "free_fn",
  // "cancel_fn") of request id `req` starts, `level` program callbacks deep
  // (sim::Rank::program_callbacks), or returns (RankRecord::callback_fn).
  void enter_grequest_callback(int rank_id, const char* fn, int req, std::size_t level);
  void leave_grequest_callback(int rank_id);

  // Memory waits (docs/traces.md): a store of the rank's program to watched
  // memory `watch` (returns the index of its `store` event); a poller
  // stopped blocking, woken by `cause`, or a read saw the value of another
  // rank's write `cause` (a `memory_wait` event).
  long long stored(int rank_id, const std::string& watch);
  void waited(int rank_id, const sim::memory::PollInfo& poll, const sim::memory::WriteCause& cause);

private:
  static double now();
  // Writes `event` to the progsim trace (never to the OTF2 export), after
  // the rank's pending local calls, and counts it; in a generalized
  // request's callback, marked (RankRecord::callback_fn).
  void emit(int rank_id, const Event& event);
  void emit_one(int rank_id, const Event& event);
  // Events of the run's end: a `memory_wait` that no write ended for a
  // rank still polling; an `exit` with the status of a rank's main that
  // returned non-zero (or called exit so).
  void write_endings();

  std::unique_ptr<TraceWriter> writer_;
  std::unique_ptr<Otf2Export> otf2_;
  std::vector<RankRecord> ranks_;
};

// The recording under way, null when none is (start_recording, stop_recording).
extern std::unique_ptr<Recorder> g_recorder;

// --- each rank's ids (RecorderState.cpp) ------------------------------------

// The rank calling now when a trace is being recorded, else -1.
int recording_rank();

int comm_id(int rank, MPI_Comm comm);
// A session's id (MPI_Session_init), -1 for a handle the recorder does not know.
int session_id(int rank, MPI_Session session);
// The id a new request will get, and its handle once the call returned.
int next_request(int rank);
void bind_request(int rank, int id, MPI_Request handle);
int request_id(int rank, MPI_Request handle);
// After a completion call: handles set to MPI_REQUEST_NULL are forgotten,
// and a cancelled request the call retired gets its `cancelled` event.
void forget_request(int rank, MPI_Request before, MPI_Request after);
int new_comm(int rank);
void bind_comm(int rank, int id, MPI_Comm handle);
// The window's per-rank id, -1 when unknown.
int window_id(int rank, MPI_Win win);

// --- calls not recorded as themselves (RecorderHook.cpp) -------------------

// The generic hook (sim/ProgramCallHook.hpp): every call of the program
// that no wrapper recorded.
void program_call(sim::Rank& rank, const char* name, bool local_query);
// The failed-call hook (sim/ProgramCallHook.hpp).
void failed_call(sim::Rank& rank, const char* name, const char* error);
void write_unsupported(int rank, const char* name, const char* why);

// Opened first by every wrapper. A wrapper entered while its rank is inside
// an MPI call is a program callback calling MPI (an attribute delete
// function in MPI_Finalize, an error handler, a user reduction): a replay
// runs no callbacks, so such a call is refused (`name`; local calls, null
// `name`, are only left out) and nothing the callback calls is recorded.
// Except the attribute delete functions MPI_Finalize runs first (MPI-4.1
// §11.2.4): their calls, local ones too (since branch issue19-grequest),
// are recorded, marked "in": "MPI_Finalize", and a replay makes them from a
// delete function of its own; and the query, free and cancel functions of
// generalized requests (MPI-4.1 §13.2), whose calls, local ones too, are
// recorded marked "in": "query_fn" (...), which a replay makes from its
// own. The program's own call (not a local one) that wrote its
// event and returned an error gets a `failed` event after it when the
// wrapper returns (the event is written before the call runs, or after,
// for calls whose event holds results).
class WrapperEntry {
public:
  explicit WrapperEntry(const char* name);
  ~WrapperEntry();
  WrapperEntry(const WrapperEntry&) = delete;
  WrapperEntry& operator=(const WrapperEntry&) = delete;

private:
  int rank_ = -1;       // a callback's call
  int outer_rank_ = -1;  // the program's own call
  int finalize_rank_ = -1;  // a call of a callback MPI_Finalize runs
  long long written_before_ = 0;
};

// Whether `rank`'s call entering now is made directly by a generalized
// request's callback under way (RankRecord::callback_fn): recorded, marked.
bool in_grequest_callback(const sim::Rank& rank);

// A call whose event is written after it returns (with its flag, 0 until
// then): `event` is its event if it never returns (RankRecord::unreturned);
// returned_from forgets it. Not a destructor's: a run that ends with the
// rank in the call may unwind it.
void until_returned(int rank, Event event);
void returned_from(int rank);

// --- the events' shared fields (EventFields.cpp) ----------------------------

long long bytes_of(MPI_Datatype type, long long count);
// What a receive's status says (the caller's, or one of the recorder's own
// when the caller ignores it).
Completion received(int request, const MPI_Status& status);

// The status a single-completion call (MPI_Recv, MPI_Sendrecv, MPI_Wait,
// MPI_Test) fills for the recorder: the program's, or the recorder's own,
// zeroed, when the program ignores it and the trace wants completions.
class CompletionStatus {
public:
  CompletionStatus(MPI_Status* program_status, bool wanted);
  CompletionStatus(const CompletionStatus&) = delete;
  CompletionStatus& operator=(const CompletionStatus&) = delete;
  MPI_Status* get() const { return used_; }
  // Tells the recorder that `rank`'s call returned `err`, with what it
  // received when it succeeded and `completed` its request. A call that
  // fails before completing anything (an argument error: MPI_ERR_BUFFER
  // for a null buffer) leaves the status unwritten, so it is not read then:
  // the trace held stack garbage.
  void report(int rank, int request, int err, bool completed = true) const;

private:
  MPI_Status own_{};
  MPI_Status* used_;
};
Event p2p(const char* call, int rank, int peer, int tag, MPI_Comm comm, long long bytes);
// sendrecv, isendrecv (with `rbytes`) and isendrecv_replace (without).
Event sendrecv_event(const char* call, int rank, int dest, int sendtag, MPI_Comm comm, long long bytes, int source,
                     int recvtag, long long rbytes = -1);
// Reductions keep count, datatype and operation as the model reduces them
// (docs/traces.md): predefined ones as called; a derived datatype of one
// predefined type as items of "elements" of it; a user operation as items
// of "elements" bytes, with "commutative". Returns false when the datatype
// or operation is invalid (recorded as bytes with MPI_BOR: the call fails).
bool add_reduction(Event& event, int rank, long long count, MPI_Datatype type, MPI_Op op);
// The event, with "in_place": 1 when `buffer` is MPI_IN_PLACE.
Event in_place(Event event, const void* buffer);
// One entry per peer; `Count` is int, or MPI_Count for the large-count forms.
template <class Count>
std::vector<long long> byte_list(const Count counts[], MPI_Datatype type, int n)
{
  std::vector<long long> list;
  if (!counts)
    return list;
  for (int i = 0; i < n; ++i)
    list.push_back(bytes_of(type, counts[i]));
  return list;
}
// The same with a datatype per peer (the w-forms).
template <class Count>
std::vector<long long> byte_list(const Count counts[], const MPI_Datatype types[], int n)
{
  std::vector<long long> list;
  for (int i = 0; counts && types && i < n; ++i)
    list.push_back(bytes_of(types[i], counts[i]));
  return list;
}
// The event of a collective, shared by its blocking and nonblocking forms
// (the nonblocking one adds "req").
Event comm_event(const char* name, int rank, MPI_Comm comm);
// alltoall, allgather and their neighborhood forms: what goes to and comes
// from each peer.
Event exchange_event(const char* name, int rank, MPI_Comm comm, long long sendcount, MPI_Datatype sendtype, long long recvcount,
                     MPI_Datatype recvtype);

// alltoallw and its neighborhood form: the bytes to and from each peer.
Event w_event(const char* name, int rank, MPI_Comm comm, std::vector<long long> sbytes, std::vector<long long> rbytes);

// --- record helpers ----------------------------------------------------------

// A call that starts a request: the event carries the id the request will have.
template <class Call>
int record_request(int rank, Event event, MPI_Request* request, Call call)
{
  int id = next_request(rank);
  event["req"] = id;
  g_recorder->write(rank, event);
  int err = call();
  if (err == MPI_SUCCESS && request)
    bind_request(rank, id, *request);
  g_recorder->returned(rank, {}, err != MPI_SUCCESS);
  return err;
}

// isend, issend, irecv, ibsend, irsend, and the persistent *_init.
template <class Call>
int record_nonblocking(const char* name, int peer, int tag, MPI_Comm comm, long long bytes, MPI_Request* request,
                       Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  return record_request(rank, p2p(name, rank, peer, tag, comm, bytes), request, call);
}

// A nonblocking or persistent collective (or MPI_Isendrecv): `make_event(rank)`
// gives its event without the request id.
template <class MakeEvent, class Call>
int record_icollective(MakeEvent make_event, MPI_Request* request, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  return record_request(rank, make_event(rank), request, call);
}

}  // namespace progsim::traces::recorder

// The first statement of every wrapper: where the program called (for
// diagnostics) and whether it is a program callback inside MPI.
#define PROGSIM_WRAPPER()                                           \
  progsim::sim::InterposedCall interposed(__builtin_return_address(0)); \
  WrapperEntry entry_(__func__)
#define PROGSIM_LOCAL_WRAPPER()                                     \
  progsim::sim::InterposedCall interposed(__builtin_return_address(0)); \
  WrapperEntry entry_(nullptr)

// Records the call (`event_expr`, with the calling rank as rank_) when
// recording, runs it, and notes that it returned.
#define PROGSIM_RECORD(event_expr, call)      \
  do {                                        \
    int rank_ = recording_rank();             \
    if (rank_ < 0)                            \
      return call;                            \
    g_recorder->write(rank_, event_expr);     \
    auto result_ = call;                      \
    g_recorder->returned(rank_, {}, result_ != MPI_SUCCESS); \
    return result_;                           \
  } while (0)
#define PROGSIM_RECORD_LOCAL(name, call)      \
  do {                                        \
    int rank_ = recording_rank();             \
    if (rank_ >= 0)                           \
      g_recorder->local(rank_, name);         \
    return call;                              \
  } while (0)
