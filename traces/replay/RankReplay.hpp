// One rank of `progsim replay`: reads the rank's events from the trace
// (incrementally) and performs each with the regular MPI C API (the PMPI_
// names, so that nothing here is recorded again) on scratch buffers of the
// recorded sizes. Each event kind of TraceEvents.def has one action
// (ReplayActions.cpp); the trace's ids of communicators and requests map to
// the handles the replay created.
#pragma once

#include "traces/TraceSource.hpp"
#include "traces/replay/AttachedLayout.hpp"
#include "traces/replay/ReductionItems.hpp"
#include "traces/replay/Scratch.hpp"

#include "core/Request.hpp"
#include "sim/Rank.hpp"

#include <mpi.h>

#include <exception>
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace progsim::traces {

class RankReplay {
public:
  // How a collective's event is replayed: blocking (no request), or
  // nonblocking, or persistent (its *_init call), the request in `request`.
  struct Form {
    MPI_Request* request = nullptr;
    bool persistent = false;
  };

  RankReplay(sim::Rank& rank, const std::string& path, const TraceInfo& info);

  // Performs every event of the rank; a bad event raises TraceError (file:line).
  void run();
  // The status the recorded rank's main ended with (its `exit` event, else 0).
  int exit_code() const { return exit_code_; }

private:
  void perform(const TraceEvent& e);
  // The warning of a rank whose events end before MPI_Finalize, out of
  // run()'s frame: run() is at the top of the rank's stack, below which every
  // event is replayed, and its depth decides how many pages each replayed
  // rank keeps resident (ReplayProgram.cpp).
  [[gnu::noinline, gnu::cold]] void events_end_early() const;
  [[noreturn, gnu::noinline, gnu::cold]] void cannot_replay(const TraceEvent& e) const;  // perform's error, likewise
  // `call` has the `failed` event `failed` after it.
  void replay_failed_call(const TraceEvent& call, const TraceEvent& failed);

  // One action per event kind, named after it (replay_send, ...).
#define PROGSIM_TRACE_EVENT(kind, ...) void replay_##kind(const TraceEvent& e);
#include "traces/TraceEvents.def"
#undef PROGSIM_TRACE_EVENT
  struct Action {
    void (RankReplay::*perform)(const TraceEvent&);
    bool needs_mpi;  // else it may come before MPI_Init (perform)
  };
  static const std::unordered_map<std::string, Action>& actions();

  // Argument helpers: each checks the event against the replay's state and
  // raises TraceError naming the trace line.
  [[noreturn]] void fail(const std::string& reason) const;
  MPI_Comm comm(const TraceEvent& e) const;
  MPI_Comm comm(const TraceEvent& e, const char* key) const;  // a communicator id under another key
  // A group of MPI_COMM_WORLD ranks (the event's list under `key`), of the
  // session whose id is under `session_key` if the event has one (a
  // process set's group, MPI_Group_from_session_pset), freed when it goes
  // out of scope.
  struct WorldGroup {
    int rank;
    MPI_Group handle;
    WorldGroup(const WorldGroup&) = delete;
    WorldGroup& operator=(const WorldGroup&) = delete;
    ~WorldGroup();
  };
  WorldGroup world_group(const TraceEvent& e, const char* key, const char* session_key = nullptr);
  int comm_size(MPI_Comm handle) const;
  // A peer or root of the event, checked against its communicator: a rank
  // outside it is an error of the trace, not a fatal MPI error of the replay.
  int rank_field(const TraceEvent& e, const char* key, MPI_Comm c, bool receive = false) const;
  int count(long long bytes) const;
  std::vector<int> counts(const nlohmann::json& list, int n, long long& total) const;
  MPI_Datatype datatype(const TraceEvent& e) const;
  MPI_Op op(const TraceEvent& e) const;
  long long type_size(MPI_Datatype type) const;
  MPI_Request& request(int id);
  // The handle of the event's "req" (-1: MPI_REQUEST_NULL).
  MPI_Request request_or_null(const TraceEvent& e);
  // The message of a matched probe, by its id (-1: MPI_MESSAGE_NO_PROC).
  MPI_Message take_message(int id);
  void ensure_initialized();
  // Raises TraceError for an error, unless the recorded call failed too
  // after its effect (errors_recorded_).
  void check(int err) const;

  // What several actions share.
  using BlockingSend = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm);
  using NonblockingSend = int (*)(const void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);
  using NonblockingRecv = int (*)(void*, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request*);
  void blocking_send(const TraceEvent& e, BlockingSend send);
  void nonblocking_send(const TraceEvent& e, NonblockingSend send);
  void nonblocking_receive(const TraceEvent& e, NonblockingRecv receive);
  void keep_request(const TraceEvent& e, MPI_Request handle);
  // MPI_Sendrecv(_replace), blocking (`request` null) or nonblocking.
  void sendrecv(const TraceEvent& e, MPI_Request* request);
  void sendrecv_replace(const TraceEvent& e, MPI_Request* request);
  // Runs a completion call on the handles of the event's "reqs" and keeps
  // what it left in each (MPI_REQUEST_NULL once completed).
  template <class Call>
  void on_requests(const TraceEvent& e, Call call);
  template <class Call>
  void on_requests(const std::vector<int>& ids, Call call);
  // Whether the replay's request `id` is still to complete: not
  // MPI_REQUEST_NULL, nor a persistent request that is inactive.
  bool pending(int id);
  // After a wait: forgets `id` unless it is persistent (kept for its next start).
  void retired(int id);
  void keep_comm(const TraceEvent& e, MPI_Comm created);
  // MPI_Psend_init or (`receive`) MPI_Precv_init (PartitionedActions.cpp).
  void partitioned_init(const TraceEvent& e, bool receive);
  // A reduction's input and output buffers: `items` items of the event's type per output.
  struct Reduction {
    int count;
    MPI_Datatype type;  // of one item: "elements" elements of "dt" (ReductionItems)
    MPI_Op op;
    long long bytes;  // of `count` items
  };
  Reduction reduction(const TraceEvent& e);
  // MPI_IN_PLACE if the event says the program passed it, else `buffer`.
  static const void* in_place_or(const TraceEvent& e, const void* buffer);
  // "sbytes" of an alltoallv/w (none with MPI_IN_PLACE: zeros), checked as counts().
  std::vector<int> send_counts(const TraceEvent& e, int peers, long long& total) const;
  // The collectives in each Form (ReplayActions.cpp).
  void started(const TraceEvent& e, Form form);
  void barrier(const TraceEvent& e, Form form);
  void bcast(const TraceEvent& e, Form form);
  void reduce(const TraceEvent& e, Form form);
  using BlockingReduction = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm);
  using NonblockingReduction = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Request*);
  using PersistentReduction = int (*)(const void*, void*, int, MPI_Datatype, MPI_Op, MPI_Comm, MPI_Info,
                                      MPI_Request*);
  void reduction_call(const TraceEvent& e, Form form, BlockingReduction blocking, NonblockingReduction nonblocking,
                      PersistentReduction persistent);
  void allreduce(const TraceEvent& e, Form form);
  void scan(const TraceEvent& e, Form form);
  void exscan(const TraceEvent& e, Form form);
  void reduce_scatter_block(const TraceEvent& e, Form form);
  void reduce_scatter(const TraceEvent& e, Form form);
  void alltoall(const TraceEvent& e, Form form);
  void alltoallv(const TraceEvent& e, Form form);
  template <class Displ, class Blocking, class Nonblocking, class Persistent>
  void w_exchange(const TraceEvent& e, Form form, int out_peers, int in_peers, Blocking blocking,
                  Nonblocking nonblocking, Persistent persistent);
  void alltoallw(const TraceEvent& e, Form form);
  void gather(const TraceEvent& e, Form form);
  void gatherv(const TraceEvent& e, Form form);
  void scatter(const TraceEvent& e, Form form);
  void scatterv(const TraceEvent& e, Form form);
  void allgather(const TraceEvent& e, Form form);
  void allgatherv(const TraceEvent& e, Form form);
  void neighbor_allgather(const TraceEvent& e, Form form);
  void neighbor_alltoall(const TraceEvent& e, Form form);
  void neighbor_allgatherv(const TraceEvent& e, Form form);
  void neighbor_alltoallv(const TraceEvent& e, Form form);
  void neighbor_alltoallw(const TraceEvent& e, Form form);

  // One-sided communication (RmaActions.cpp). A window of the trace: its
  // handle and the scratch memory the replay exposes in it.
  struct ReplayWindow {
    MPI_Win handle = MPI_WIN_NULL;
    ScratchBlock memory;                                // MPI_Win_create
    std::unique_ptr<AttachedLayout> attached;          // dynamic windows (made at the first attach)
    // The replay's MPI_Win_test ended the exposure epoch before the
    // recorded one did (another policy): later tests and waits of that
    // epoch are not made.
    bool exposure_ended = false;
  };
  ReplayWindow& window(const TraceEvent& e);
  template <class Create>
  void create_window(const TraceEvent& e, Create create);
  // The target and its address of an operation ("target", "disp", "region").
  struct Target {
    int rank;
    MPI_Aint disp;
  };
  Target target(const TraceEvent& e, ReplayWindow& w);
  // The target datatype of an operation whose recorded target was not one
  // byte range ("pieces", "extent", "items"): `items` items of one laid out
  // as the program's, of `element` (MPI_BYTE, or the accumulate's type),
  // and how far before the first byte touched the first item's lies.
  // Made without an MPI call, freed by the caller (release_target_layout).
  // When there is none or it does not hold `elements` elements, the target
  // is contiguous, as before: `elements` of `element`, no shift.
  struct TargetLayout {
    MPI_Datatype type;
    int count;        // of `type`
    MPI_Aint shift = 0;
    bool made = false;  // `type` was made for it
  };
  TargetLayout target_layout(const TraceEvent& e, MPI_Datatype element, int elements);
  // Error handlers set to MPI_ERRORS_RETURN for a failed call's replay,
  // with the handler each had (replay_failed_call restores them).
  using SavedErrhandlers = std::vector<std::pair<MPI_Errhandler*, MPI_Errhandler>>;
  // Sets the error handler of each of the rank's windows to
  // MPI_ERRORS_RETURN, saving the old one in `saved`.
  void windows_returning_errors(SavedErrhandlers& saved);
  void release_target_layout(const TargetLayout& layout);
  // A group of the window's ranks ("ranks"), made without an MPI call (the
  // program's group calls are recorded as local calls already).
  MPI_Group window_group(const TraceEvent& e, MPI_Win handle);
  void operation(const TraceEvent& e, MPI_Request* request);
  void accumulate(const TraceEvent& e, MPI_Request* request, bool fetching);

  sim::Rank& rank_;
  std::map<int, ReplayWindow> windows_;
  std::unique_ptr<RankEventSource> events_;
  // The event being replayed and the one read ahead (run()): here, not in
  // run()'s frame, at the top of the rank's stack (see events_end_early);
  // each keeps its buffers from one event to the next (TraceEvent).
  TraceEvent current_;
  TraceEvent ahead_;
  const TraceEvent* event_ = nullptr;
  std::map<int, MPI_Request> requests_;
  // Requests cancelled (`cancel`) until their `cancelled` event; null: the
  // replay had completed the request before the cancel.
  std::map<int, mpi::RequestPtr> cancels_;
  std::map<int, MPI_Comm> comms_;
  std::map<int, MPI_Session> sessions_;
  std::map<int, MPI_Message> messages_;
  ReductionItems reduction_items_;
  // The events of the attribute delete callbacks the program's MPI_Finalize
  // ran ("in": "MPI_Finalize"), made by the replay's own delete callback
  // (replay_finalize), and an error met there, raised after MPI_Finalize.
  std::vector<TraceEvent> in_finalize_;
  std::exception_ptr in_finalize_error_;
  static int replay_in_finalize(MPI_Comm comm, int keyval, void* value, void* extra);
  // Generalized requests (GeneralizedRequestActions.cpp). The calls a
  // program's query, free or cancel function made, read after the event of
  // the call that ran it (its `grequest_callback` event and the events
  // marked with it), in that order: the replay's own function of that
  // request makes them when the replayed call runs it, and those it did not
  // run there are made as the call returns (callbacks_left).
  struct CallbackCalls {
    std::string fn;  // "query_fn", "free_fn", "cancel_fn"
    int req;
    std::vector<TraceEvent> events;
  };
  std::vector<CallbackCalls> callback_calls_;
  std::exception_ptr callback_error_;  // met in a callback, raised as the call returns
  struct Grequest {
    RankReplay* self;
    int req;
  };
  std::map<int, Grequest> grequests_;            // by id until free_fn ran: the functions' extra state
  std::map<int, MPI_Request> grequest_handles_;  // by id until grequest_complete (a freed request too)
  static int replay_query_fn(void* extra, MPI_Status* status);
  static int replay_free_fn(void* extra);
  static int replay_cancel_fn(void* extra, int complete);
  // Makes the calls of `fn` of request `req` if they are the next ones read.
  void run_callback(const char* fn, int req);
  // After the call that ran the callbacks: makes those it did not run, and
  // raises an error met in one.
  void callbacks_left();
  // Performs `events` (a callback's calls), then names `outer` again.
  void perform_nested(const std::vector<TraceEvent>& events, const TraceEvent* outer);
  bool errors_recorded_ = false;
  std::unique_ptr<char[]> attached_;  // the buffer of buffer_attach, MPI's until buffer_detach
  int exit_code_ = 0;
};

}  // namespace progsim::traces
