// The action of each trace event kind (TraceEvents.def): the MPI call it
// stands for, on scratch buffers of the recorded sizes. Compute events run on
// the rank's host CPU (progsim_compute), where they compete with progress
// threads. So the trace drives the same MPI model as the program did:
// protocols, progress chunks and collective algorithms of the chosen policy.
#include "traces/replay/RankReplay.hpp"
#include "traces/replay/Scratch.hpp"

#include "traces/MpiNames.hpp"
#include "traces/CommunicatorSizes.hpp"

#include "MpiModel.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <algorithm>
#include <climits>

namespace progsim::traces {

Scratch send_scratch;
Scratch recv_scratch;

namespace {

std::vector<int> displacements(const std::vector<int>& counts)
{
  std::vector<int> displs(counts.size(), 0);
  for (std::size_t i = 1; i < counts.size(); ++i)
    displs[i] = displs[i - 1] + counts[i - 1];
  return displs;
}

// A collective in its form: the blocking call with `args`, or the
// nonblocking one with the request, or the persistent one (*_init) with no
// info and the request.
template <class Blocking, class Nonblocking, class Persistent, class... Args>
int collective(RankReplay::Form form, Blocking blocking, Nonblocking nonblocking, Persistent persistent,
               Args... args)
{
  if (!form.request)
    return blocking(args...);
  return form.persistent ? persistent(args..., MPI_INFO_NULL, form.request) : nonblocking(args..., form.request);
}

}  // namespace

// --- shared steps ------------------------------------------------------------

void RankReplay::blocking_send(const TraceEvent& e, BlockingSend send)
{
  int n = count(e.integer("bytes"));
  MPI_Comm c = comm(e);
  check(send(send_scratch.get(n), n, MPI_BYTE, rank_field(e, "peer", c), e.small("tag"), c));
}

void RankReplay::nonblocking_send(const TraceEvent& e, NonblockingSend send)
{
  int n = count(e.integer("bytes"));
  MPI_Comm c = comm(e);
  MPI_Request handle = MPI_REQUEST_NULL;
  check(send(send_scratch.get(n), n, MPI_BYTE, rank_field(e, "peer", c), e.small("tag"), c, &handle));
  keep_request(e, handle);
}

void RankReplay::nonblocking_receive(const TraceEvent& e, NonblockingRecv receive)
{
  int n = count(e.integer("bytes"));
  MPI_Comm c = comm(e);
  MPI_Request handle = MPI_REQUEST_NULL;
  check(receive(recv_scratch.get(n), n, MPI_BYTE, rank_field(e, "peer", c, true), e.small("tag"), c, &handle));
  keep_request(e, handle);
}

void RankReplay::keep_request(const TraceEvent& e, MPI_Request handle)
{
  requests_[e.small("req")] = handle;
}

template <class Call>
void RankReplay::on_requests(const TraceEvent& e, Call call)
{
  std::vector<int> ids;
  e.integers("reqs", ids);
  on_requests(ids, call);
}

template <class Call>
void RankReplay::on_requests(const std::vector<int>& ids, Call call)
{
  std::vector<MPI_Request> handles;
  handles.reserve(ids.size());
  for (int id : ids)
    handles.push_back(id < 0 ? MPI_REQUEST_NULL : request(id));
  check(call(static_cast<int>(handles.size()), handles.data()));
  for (std::size_t i = 0; i < ids.size(); ++i)
    if (ids[i] >= 0)
      requests_[ids[i]] = handles[i];
}

bool RankReplay::pending(int id)
{
  if (id < 0 || request(id) == MPI_REQUEST_NULL)
    return false;
  mpi::RequestPtr r = mpi::MpiModel::instance().requests().find(request(id));
  return r && r->active();
}

void RankReplay::retired(int id)
{
  auto found = requests_.find(id);
  if (found != requests_.end() && found->second == MPI_REQUEST_NULL)
    requests_.erase(found);
}

void RankReplay::keep_comm(const TraceEvent& e, MPI_Comm created)
{
  if (created != MPI_COMM_NULL)
    comms_[e.small("newcomm")] = created;
}

RankReplay::Reduction RankReplay::reduction(const TraceEvent& e)
{
  bool user = e.string("op") == "user";
  Reduction r{e.has("count") ? count(e.integer("count")) : 0, datatype(e),
              user ? reduction_items_.user_op(e.has("commutative") && e.integer("commutative") != 0) : op(e), 0};
  if (e.has("elements")) {
    // An item is a datatype: its size is an int (MPI_Type_size).
    long long elements = e.integer("elements");
    long long element_size = std::max(type_size(r.type), 1LL);
    if (elements > INT_MAX / element_size)
      fail("items of " + std::to_string(elements) + " elements of " + std::to_string(element_size) +
           " bytes are beyond what replay supports (2^31-1 bytes)");
    r.type = reduction_items_.item_type(r.type, elements);
  }
  r.bytes = static_cast<long long>(r.count) * type_size(r.type);
  return r;
}

const void* RankReplay::in_place_or(const TraceEvent& e, const void* buffer)
{
  return e.has("in_place") && e.integer("in_place") != 0 ? MPI_IN_PLACE : buffer;
}

std::vector<int> RankReplay::send_counts(const TraceEvent& e, int peers, long long& total) const
{
  // With MPI_IN_PLACE the send counts are ignored (MPI-4.1 §6.8), and the
  // program may have passed none.
  if (in_place_or(e, nullptr) == MPI_IN_PLACE)
    return std::vector<int>(static_cast<std::size_t>(peers), 0);
  return counts(e.fields().at("sbytes"), peers, total);
}

// --- outside MPI -------------------------------------------------------------

void RankReplay::replay_compute(const TraceEvent& e)
{
  progsim_compute(e.has("s") ? e.number("s") : e.number("flops") / rank_.host()->get_speed());
}

void RankReplay::replay_sleep(const TraceEvent& e)
{
  sim::RankState before = rank_.state();
  rank_.set_state(sim::RankState::Sleeping);
  rank_.clock().sleep(e.number("s"));
  rank_.set_state(before);
}

// --- memory waits (docs/traces.md) -------------------------------------------

// The program's store woke a poller, at the writer's clock: its debt
// executed first, as the run's Settle trap did before the store's.
void RankReplay::replay_store(const TraceEvent&)
{
  sim::SimulatorEntry entry(rank_.libc());
  rank_.clock().flush();
  sim::memory::MemoryWatch::instance().replay_store(rank_.id());
}

// The rank polled until the write of another rank's event: blocked as a
// poller (its polling time, a deadlock naming this line if the write is
// never made), whatever the policy makes that write's time.
void RankReplay::replay_memory_wait(const TraceEvent& e)
{
  int writer = e.small("writer");
  long long index = e.integer("event");
  int nranks = sim::Simulation::current()->size();
  // The writer may be the rank itself: its own RMA operation, which a
  // progress thread or offload engine applies while it polls.
  if (writer < -1 || writer >= nranks || (writer >= 0 && index < 0))
    fail("memory_wait: writer " + std::to_string(writer) + ", event " + std::to_string(index) +
         " names no rank's event (writer -1: a write that never came)");
  sim::memory::PollInfo poll;
  poll.description = e.has("watch") ? e.fields().at("watch").get<std::string>() : std::string("memory");
  poll.offset = e.has("offset") ? static_cast<std::size_t>(std::max(0LL, e.integer("offset"))) : 0;
  sim::memory::MemoryWatch::instance().replay_wait(rank_.id(), {writer, index}, poll);
}

void RankReplay::replay_exit(const TraceEvent& e)
{
  exit_code_ = e.small("code");
}

void RankReplay::replay_unsupported(const TraceEvent& e)
{
  // An MPI procedure, or what the program did outside MPI (busy-waiting on
  // watched memory).
  std::string name = e.fields().at("name").get<std::string>();
  fail("the recorded program " + std::string(name.rfind("MPI_", 0) == 0 ? "called " : "used ") + name +
       ", which traces cannot replay yet" +
       (e.has("why") ? " (" + e.fields().at("why").get<std::string>() + ")" : std::string()));
}

void RankReplay::replay_failed(const TraceEvent& e)
{
  // A failed event right after a call is taken by RankReplay::run.
  fail("a failed event (" + e.fields().at("name").get<std::string>() + ") must follow the event of the call it marks");
}

// --- environment -------------------------------------------------------------

void RankReplay::replay_init(const TraceEvent&)
{
  check(PMPI_Init(nullptr, nullptr));
}

// A session with MPI_ERRORS_ARE_FATAL (the program's handler is not
// recorded; a replay's calls report their errors themselves).
void RankReplay::replay_session_init(const TraceEvent& e)
{
  MPI_Session session = MPI_SESSION_NULL;
  check(PMPI_Session_init(MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &session));
  sessions_[e.small("session")] = session;
}

void RankReplay::replay_session_finalize(const TraceEvent& e)
{
  auto found = sessions_.find(e.small("session"));
  if (found == sessions_.end())
    fail("session id " + std::to_string(e.small("session")) + " was not initialized earlier in rank " +
         std::to_string(rank_.id()) + "'s events");
  check(PMPI_Session_finalize(&found->second));
  sessions_.erase(found);
}

// The calls of the program's attribute delete callbacks are made where
// MPI_Finalize ran them, first (MPI-4.1 §11.2.4), by a delete callback of
// the replay on MPI_COMM_SELF, set without an MPI call (the program's
// keyval and attribute calls are `local` events already).
void RankReplay::replay_finalize(const TraceEvent&)
{
  reduction_items_.release();
  if (!in_finalize_.empty()) {
    mpi::Process& process = mpi::MpiModel::instance().process(rank_.id());
    mpi::Keyval keyval;
    keyval.del = &RankReplay::replay_in_finalize;
    keyval.extra_state = this;
    int handle = process.keyvals.create(keyval);
    process.keyvals.add_use(handle);
    mpi::MpiModel::instance().communicators().get(MPI_COMM_SELF, rank_.id())->attributes.set(handle, nullptr);
  }
  check(PMPI_Finalize());
  if (in_finalize_error_)
    std::rethrow_exception(in_finalize_error_);
}

int RankReplay::replay_in_finalize(MPI_Comm, int keyval, void*, void* extra)
{
  auto* self = static_cast<RankReplay*>(extra);
  mpi::MpiModel::instance().process(self->rank_.id()).keyvals.free_keyval(keyval, mpi::KeyvalKind::Comm);
  const TraceEvent* finalize = self->event_;
  try {
    for (const TraceEvent& e : self->in_finalize_) {
      self->event_ = &e;
      self->rank_.trace_position.line = e.line;
      self->rank_.trace_position.event = &e.call;
      sim::memory::MemoryWatch::instance().set_trace_position(self->rank_.id(), e.index);
      self->perform(e);
    }
  } catch (const TraceError&) {
    // Not through MPI_Finalize's frames: raised when it returns.
    self->in_finalize_error_ = std::current_exception();
  }
  self->event_ = finalize;
  sim::memory::MemoryWatch::instance().set_trace_position(self->rank_.id(), finalize->index);
  self->rank_.trace_position.line = finalize->line;
  self->rank_.trace_position.event = &finalize->call;
  return MPI_SUCCESS;
}

// The cost of the recorded calls, by calls of the same kind (sim::CallKind):
// a local query may leave its cost deferred, an interacting call executes
// the rank's deferred costs first, which changes when the rank's next
// messages leave under some policies.
void RankReplay::replay_local(const TraceEvent& e)
{
  bool wtime = e.string("name") == "MPI_Wtime";
  bool interacting = e.has("kind") && e.string("kind") == "interacting";
  bool usable = rank_.mpi_initialized && !rank_.mpi_finalized;
  long long repeat = e.has("repeat") ? e.integer("repeat") : 1;
  for (long long i = 0; i < repeat; ++i) {
    int ignored = 0;
    if (wtime)
      PMPI_Wtime();
    else if (usable && interacting)
      PMPI_Comm_compare(MPI_COMM_WORLD, MPI_COMM_WORLD, &ignored);
    else if (usable)
      PMPI_Comm_size(MPI_COMM_WORLD, &ignored);
    else if (interacting && !sessions_.empty())  // the Sessions Model without MPI_Init: no MPI_COMM_WORLD
      PMPI_Group_size(MPI_GROUP_EMPTY, &ignored);
    else  // MPI_Initialized before MPI_Init, MPI_Finalized after MPI_Finalize
      PMPI_Initialized(&ignored);
  }
}

// --- point-to-point ----------------------------------------------------------

void RankReplay::replay_send(const TraceEvent& e)
{
  blocking_send(e, PMPI_Send);
}

void RankReplay::replay_ssend(const TraceEvent& e)
{
  blocking_send(e, PMPI_Ssend);
}

void RankReplay::replay_bsend(const TraceEvent& e)
{
  blocking_send(e, PMPI_Bsend);
}

void RankReplay::replay_rsend(const TraceEvent& e)
{
  blocking_send(e, PMPI_Rsend);
}

void RankReplay::replay_recv(const TraceEvent& e)
{
  int n = count(e.integer("bytes"));
  MPI_Comm c = comm(e);
  check(PMPI_Recv(recv_scratch.get(n), n, MPI_BYTE, rank_field(e, "peer", c, true), e.small("tag"), c,
                  MPI_STATUS_IGNORE));
}

void RankReplay::replay_isend(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Isend);
}

void RankReplay::replay_issend(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Issend);
}

void RankReplay::replay_ibsend(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Ibsend);
}

void RankReplay::replay_irsend(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Irsend);
}

void RankReplay::replay_irecv(const TraceEvent& e)
{
  nonblocking_receive(e, PMPI_Irecv);
}

// MPI_Sendrecv(_replace) and their nonblocking forms (`request` not null).
void RankReplay::sendrecv(const TraceEvent& e, MPI_Request* request)
{
  int n = count(e.integer("bytes"));
  int rn = count(e.integer("rbytes"));
  MPI_Comm c = comm(e);
  void* out = send_scratch.get(n);
  void* in = recv_scratch.get(rn);
  int peer = rank_field(e, "peer", c), source = rank_field(e, "source", c, true);
  int tag = e.small("tag"), rtag = e.small("rtag");
  check(request ? PMPI_Isendrecv(out, n, MPI_BYTE, peer, tag, in, rn, MPI_BYTE, source, rtag, c, request)
                : PMPI_Sendrecv(out, n, MPI_BYTE, peer, tag, in, rn, MPI_BYTE, source, rtag, c, MPI_STATUS_IGNORE));
  if (request)
    keep_request(e, *request);
}

void RankReplay::sendrecv_replace(const TraceEvent& e, MPI_Request* request)
{
  int n = count(e.integer("bytes"));
  MPI_Comm c = comm(e);
  void* buf = recv_scratch.get(n);
  int peer = rank_field(e, "peer", c), source = rank_field(e, "source", c, true);
  int tag = e.small("tag"), rtag = e.small("rtag");
  check(request ? PMPI_Isendrecv_replace(buf, n, MPI_BYTE, peer, tag, source, rtag, c, request)
                : PMPI_Sendrecv_replace(buf, n, MPI_BYTE, peer, tag, source, rtag, c, MPI_STATUS_IGNORE));
  if (request)
    keep_request(e, *request);
}

void RankReplay::replay_sendrecv(const TraceEvent& e)
{
  sendrecv(e, nullptr);
}

void RankReplay::replay_isendrecv(const TraceEvent& e)
{
  MPI_Request request = MPI_REQUEST_NULL;
  sendrecv(e, &request);
}

void RankReplay::replay_sendrecv_replace(const TraceEvent& e)
{
  sendrecv_replace(e, nullptr);
}

void RankReplay::replay_isendrecv_replace(const TraceEvent& e)
{
  MPI_Request request = MPI_REQUEST_NULL;
  sendrecv_replace(e, &request);
}

void RankReplay::replay_wait(const TraceEvent& e)
{
  int id = e.small("req");
  MPI_Request null_request = MPI_REQUEST_NULL;
  check(PMPI_Wait(id < 0 ? &null_request : &request(id), MPI_STATUS_IGNORE));
  retired(id);
}

void RankReplay::replay_waitall(const TraceEvent& e)
{
  std::vector<int> ids;
  e.integers("reqs", ids);
  on_requests(ids, [](int n, MPI_Request* r) { return PMPI_Waitall(n, r, MPI_STATUSES_IGNORE); });
  for (int id : ids)
    retired(id);
}

// Persistent point-to-point: the request keeps its id from its *_init to
// MPI_Request_free.
void RankReplay::replay_send_init(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Send_init);
}

void RankReplay::replay_ssend_init(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Ssend_init);
}

void RankReplay::replay_bsend_init(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Bsend_init);
}

void RankReplay::replay_rsend_init(const TraceEvent& e)
{
  nonblocking_send(e, PMPI_Rsend_init);
}

void RankReplay::replay_recv_init(const TraceEvent& e)
{
  nonblocking_receive(e, PMPI_Recv_init);
}

void RankReplay::replay_start(const TraceEvent& e)
{
  check(PMPI_Start(&request(e.small("req"))));
}

void RankReplay::replay_startall(const TraceEvent& e)
{
  on_requests(e, [](int n, MPI_Request* r) { return PMPI_Startall(n, r); });
}

// The request sets of MPI_Waitany & co. are replayed as the same call; what
// the recorded call completed follows as a `completed` event.
void RankReplay::replay_waitany(const TraceEvent& e)
{
  on_requests(e, [](int n, MPI_Request* r) {
    int index = 0;
    return PMPI_Waitany(n, r, &index, MPI_STATUS_IGNORE);
  });
}

void RankReplay::replay_waitsome(const TraceEvent& e)
{
  on_requests(e, [](int n, MPI_Request* r) {
    int outcount = 0;
    std::vector<int> indices(static_cast<std::size_t>(n));
    return PMPI_Waitsome(n, r, &outcount, indices.data(), MPI_STATUSES_IGNORE);
  });
}

void RankReplay::replay_testany(const TraceEvent& e)
{
  on_requests(e, [](int n, MPI_Request* r) {
    int index = 0, flag = 0;
    return PMPI_Testany(n, r, &index, &flag, MPI_STATUS_IGNORE);
  });
}

void RankReplay::replay_testall(const TraceEvent& e)
{
  on_requests(e, [](int n, MPI_Request* r) {
    int flag = 0;
    return PMPI_Testall(n, r, &flag, MPI_STATUSES_IGNORE);
  });
}

void RankReplay::replay_testsome(const TraceEvent& e)
{
  on_requests(e, [](int n, MPI_Request* r) {
    int outcount = 0;
    std::vector<int> indices(static_cast<std::size_t>(n));
    return PMPI_Testsome(n, r, &outcount, indices.data(), MPI_STATUSES_IGNORE);
  });
}

// The recorded call completed these: under the recording's policy the
// replayed call did too (nothing left to do); under another one, what it
// did not complete yet is waited for here, so the replay goes on with the
// requests the program went on with.
void RankReplay::replay_completed(const TraceEvent& e)
{
  bool any = false;
  std::vector<int> ids;
  e.integers("reqs", ids);
  for (int id : ids)
    any = any || pending(id);
  if (any)  // else no call: it would cost time the recording did not spend
    on_requests(ids, [](int n, MPI_Request* r) { return PMPI_Waitall(n, r, MPI_STATUSES_IGNORE); });
  for (int id : ids)
    retired(id);
}

// MPI_Cancel where the program called it; its `cancelled` event, after the
// completion call that retired the request, says whether the program's
// cancel succeeded, and the replay's must have too (the outcome decides
// what the program's later calls were: a withdrawn message is received by
// nobody).
void RankReplay::replay_cancel(const TraceEvent& e)
{
  int id = e.small("req");
  auto found = requests_.find(id);
  if (found == requests_.end() || found->second == MPI_REQUEST_NULL) {
    cancels_[id] = nullptr;  // completed already by a replayed test that the recording's did not
    return;
  }
  cancels_[id] = mpi::MpiModel::instance().requests().find(found->second);
  check(PMPI_Cancel(&found->second));
}

void RankReplay::replay_cancelled(const TraceEvent& e)
{
  int id = e.small("req");
  auto found = cancels_.find(id);
  if (found == cancels_.end())
    fail("request id " + std::to_string(id) + " was not cancelled earlier in rank " + std::to_string(rank_.id()) +
         "'s events");
  mpi::RequestPtr r = found->second;
  cancels_.erase(found);
  auto handle = requests_.find(id);
  if (r && handle != requests_.end() && handle->second != MPI_REQUEST_NULL && r->active()) {
    // The program's completion call retired it, the replay's did not
    // (another policy): it completes here, as in the program.
    check(PMPI_Wait(&handle->second, MPI_STATUS_IGNORE));
    retired(id);
  }
  bool program = e.integer("flag") != 0;
  bool replay = r && r->cancelled;
  if (program != replay)
    fail(std::string("the program's MPI_Cancel of request id ") + std::to_string(id) +
         (program ? " succeeded" : " did not succeed") + ", the replay's " + (replay ? "did" : "did not") +
         ": whether a cancel succeeds depends on the timing (MPI-4.1 §3.8.4), and the program's later calls on "
         "it; the replay stops here");
}

// The same call on the same request; the flag is not used (the program's
// next calls are in the trace whatever it saw). A request the replay
// retired earlier (another policy) is MPI_REQUEST_NULL by then.
void RankReplay::replay_request_get_status(const TraceEvent& e)
{
  auto found = requests_.find(e.small("req"));
  MPI_Request handle = found == requests_.end() ? MPI_REQUEST_NULL : found->second;
  int flag = 0;
  do
    check(PMPI_Request_get_status(handle, &flag, MPI_STATUS_IGNORE));
  while (!flag && e.has("unreturned"));
}

void RankReplay::replay_request_free(const TraceEvent& e)
{
  int id = e.small("req");
  if (id < 0)
    return;
  MPI_Request& handle = request(id);
  if (handle != MPI_REQUEST_NULL)  // completed already by a replayed test that the recording's did not
    check(PMPI_Request_free(&handle));
  requests_.erase(id);
  cancels_.erase(id);
}

void RankReplay::replay_probe(const TraceEvent& e)
{
  MPI_Comm c = comm(e);
  check(PMPI_Probe(rank_field(e, "peer", c, true), e.small("tag"), c, MPI_STATUS_IGNORE));
}

// One MPI_Iprobe per recorded one: the replay keeps the program's control
// flow (how many times it polled), so under the recording's policy it sees
// the same flags; under another the flags may differ and are not used.
// "unreturned": the program's call never returned (a livelock held it when
// the run ended): the replay polls until it finds a message, which the
// program never did (held alike under the recording's policy).
void RankReplay::replay_iprobe(const TraceEvent& e)
{
  MPI_Comm c = comm(e);
  int flag = 0;
  do
    check(PMPI_Iprobe(rank_field(e, "peer", c, true), e.small("tag"), c, &flag, MPI_STATUS_IGNORE));
  while (!flag && e.has("unreturned"));
}

void RankReplay::replay_mprobe(const TraceEvent& e)
{
  MPI_Comm c = comm(e);
  MPI_Message message = MPI_MESSAGE_NULL;
  check(PMPI_Mprobe(rank_field(e, "peer", c, true), e.small("tag"), c, &message, MPI_STATUS_IGNORE));
  messages_[e.small("msg")] = message;
}

// A recorded MPI_Improbe that matched nothing is replayed as MPI_Iprobe: a
// replay under another policy must not take a message the program did not
// (its later receive expects it). One that matched is replayed as
// MPI_Improbe, then, if the replay's found nothing yet, MPI_Mprobe waits for
// the message the program got.
void RankReplay::replay_improbe(const TraceEvent& e)
{
  MPI_Comm c = comm(e);
  int peer = rank_field(e, "peer", c, true);
  int flag = 0;
  if (e.small("flag") == 0) {
    do
      check(PMPI_Iprobe(peer, e.small("tag"), c, &flag, MPI_STATUS_IGNORE));
    while (!flag && e.has("unreturned"));
    return;
  }
  if (!e.has("msg"))
    fail("improbe: a matched probe without \"msg\"");
  MPI_Message message = MPI_MESSAGE_NULL;
  check(PMPI_Improbe(peer, e.small("tag"), c, &flag, &message, MPI_STATUS_IGNORE));
  if (!flag)
    check(PMPI_Mprobe(peer, e.small("tag"), c, &message, MPI_STATUS_IGNORE));
  messages_[e.small("msg")] = message;
}

void RankReplay::replay_mrecv(const TraceEvent& e)
{
  int n = count(e.integer("bytes"));
  MPI_Message message = take_message(e.small("msg"));
  check(PMPI_Mrecv(recv_scratch.get(n), n, MPI_BYTE, &message, MPI_STATUS_IGNORE));
}

void RankReplay::replay_imrecv(const TraceEvent& e)
{
  int n = count(e.integer("bytes"));
  MPI_Message message = take_message(e.small("msg"));
  MPI_Request handle = MPI_REQUEST_NULL;
  check(PMPI_Imrecv(recv_scratch.get(n), n, MPI_BYTE, &message, &handle));
  keep_request(e, handle);
}

void RankReplay::replay_buffer_attach(const TraceEvent& e)
{
  int n = count(e.integer("bytes"));
  attached_.reset(new char[static_cast<std::size_t>(std::max(n, 1))]);
  check(PMPI_Buffer_attach(attached_.get(), n));
}

void RankReplay::replay_buffer_detach(const TraceEvent&)
{
  void* address = nullptr;
  int size = 0;
  check(PMPI_Buffer_detach(&address, &size));
  // attached_ is kept: MPI may still be reading a buffered send's copy until
  // it completes, and the next attach replaces it.
}

void RankReplay::replay_test(const TraceEvent& e)
{
  int id = e.small("req");
  MPI_Request null_request = MPI_REQUEST_NULL;
  int flag = 0;
  check(PMPI_Test(id < 0 ? &null_request : &request(id), &flag, MPI_STATUS_IGNORE));
}

// --- collectives -------------------------------------------------------------
//
// Each collective has one function for its blocking, nonblocking and
// persistent forms (Form): the blocking call, or the nonblocking or *_init
// one, keeping the request under the event's "req" (a persistent one until
// its `request_free`, started by `start` events).

void RankReplay::started(const TraceEvent& e, Form form)
{
  if (form.request)
    keep_request(e, *form.request);
}

void RankReplay::barrier(const TraceEvent& e, Form form)
{
  check(collective(form, PMPI_Barrier, PMPI_Ibarrier, PMPI_Barrier_init, comm(e)));
  started(e, form);
}

void RankReplay::bcast(const TraceEvent& e, Form form)
{
  int n = count(e.integer("bytes"));
  MPI_Comm c = comm(e);
  void* buf = recv_scratch.get(n);
  int root = rank_field(e, "root", c);
  check(collective(form, PMPI_Bcast, PMPI_Ibcast, PMPI_Bcast_init, buf, n, MPI_BYTE, root, c));
  started(e, form);
}

void RankReplay::reduce(const TraceEvent& e, Form form)
{
  Reduction r = reduction(e);
  MPI_Comm c = comm(e);
  const void* in = in_place_or(e, send_scratch.get(r.bytes));
  void* out = recv_scratch.get(r.bytes);
  int root = rank_field(e, "root", c);
  check(collective(form, PMPI_Reduce, PMPI_Ireduce, PMPI_Reduce_init, in, out, r.count, r.type, r.op, root, c));
  started(e, form);
}

// allreduce, scan, exscan: the same arguments.
void RankReplay::reduction_call(const TraceEvent& e, Form form, BlockingReduction blocking,
                                NonblockingReduction nonblocking, PersistentReduction persistent)
{
  Reduction r = reduction(e);
  MPI_Comm c = comm(e);
  const void* in = in_place_or(e, send_scratch.get(r.bytes));
  void* out = recv_scratch.get(r.bytes);
  check(collective(form, blocking, nonblocking, persistent, in, out, r.count, r.type, r.op, c));
  started(e, form);
}

void RankReplay::reduce_scatter_block(const TraceEvent& e, Form form)
{
  Reduction r = reduction(e);
  MPI_Comm c = comm(e);
  const void* in = in_place_or(e, send_scratch.get(r.bytes * comm_size(c)));
  void* out = recv_scratch.get(r.bytes);
  check(collective(form, PMPI_Reduce_scatter_block, PMPI_Ireduce_scatter_block, PMPI_Reduce_scatter_block_init, in, out, r.count, r.type, r.op, c));
  started(e, form);
}

void RankReplay::reduce_scatter(const TraceEvent& e, Form form)
{
  Reduction r = reduction(e);
  MPI_Comm c = comm(e);
  long long total = 0;
  std::vector<int> list = counts(e.fields().at("counts"), comm_size(c), total);
  const void* in = in_place_or(e, send_scratch.get(total * type_size(r.type)));
  void* out = recv_scratch.get(total * type_size(r.type));
  check(collective(form, PMPI_Reduce_scatter, PMPI_Ireduce_scatter, PMPI_Reduce_scatter_init, in, out, list.data(), r.type, r.op, c));
  started(e, form);
}

void RankReplay::alltoall(const TraceEvent& e, Form form)
{
  int n = count(e.integer("bytes"));
  int rn = count(e.integer("rbytes"));
  MPI_Comm c = comm(e);
  long long size = comm_size(c);
  const void* in = in_place_or(e, send_scratch.get(n * size));
  void* out = recv_scratch.get(rn * size);
  check(collective(form, PMPI_Alltoall, PMPI_Ialltoall, PMPI_Alltoall_init, in, n, MPI_BYTE, out, rn, MPI_BYTE, c));
  started(e, form);
}

void RankReplay::alltoallv(const TraceEvent& e, Form form)
{
  MPI_Comm c = comm(e);
  int size = comm_size(c);
  long long stotal = 0, rtotal = 0;
  std::vector<int> scounts = send_counts(e, size, stotal);
  std::vector<int> rcounts = counts(e.fields().at("rbytes"), size, rtotal);
  std::vector<int> sdispls = displacements(scounts), rdispls = displacements(rcounts);
  const void* in = in_place_or(e, send_scratch.get(stotal));
  void* out = recv_scratch.get(rtotal);
  check(collective(form, PMPI_Alltoallv, PMPI_Ialltoallv, PMPI_Alltoallv_init, in, scounts.data(), sdispls.data(), MPI_BYTE, out, rcounts.data(), rdispls.data(), MPI_BYTE, c));
  started(e, form);
}

void RankReplay::gather(const TraceEvent& e, Form form)
{
  int n = count(e.integer("bytes"));
  int rn = count(e.integer("rbytes"));
  MPI_Comm c = comm(e);
  long long size = comm_size(c);
  const void* in = in_place_or(e, send_scratch.get(n));
  void* out = recv_scratch.get(rn * size);
  int root = rank_field(e, "root", c);
  check(collective(form, PMPI_Gather, PMPI_Igather, PMPI_Gather_init, in, n, MPI_BYTE, out, rn, MPI_BYTE, root, c));
  started(e, form);
}

void RankReplay::gatherv(const TraceEvent& e, Form form)
{
  MPI_Comm c = comm(e);
  int n = count(e.integer("bytes"));
  long long rtotal = 0;
  std::vector<int> rcounts = counts(e.fields().at("rbytes"), comm_size(c), rtotal);
  std::vector<int> rdispls = displacements(rcounts);
  const void* in = in_place_or(e, send_scratch.get(n));
  void* out = recv_scratch.get(rtotal);
  int root = rank_field(e, "root", c);
  check(collective(form, PMPI_Gatherv, PMPI_Igatherv, PMPI_Gatherv_init, in, n, MPI_BYTE, out, rcounts.data(), rdispls.data(), MPI_BYTE, root, c));
  started(e, form);
}

void RankReplay::scatter(const TraceEvent& e, Form form)
{
  int n = count(e.integer("bytes"));
  int rn = count(e.integer("rbytes"));
  MPI_Comm c = comm(e);
  long long size = comm_size(c);
  void* in = send_scratch.get(n * size);
  void* out = const_cast<void*>(in_place_or(e, recv_scratch.get(rn)));
  int root = rank_field(e, "root", c);
  check(collective(form, PMPI_Scatter, PMPI_Iscatter, PMPI_Scatter_init, in, n, MPI_BYTE, out, rn, MPI_BYTE, root, c));
  started(e, form);
}

void RankReplay::scatterv(const TraceEvent& e, Form form)
{
  MPI_Comm c = comm(e);
  int rn = count(e.integer("rbytes"));
  long long stotal = 0;
  std::vector<int> scounts = counts(e.fields().at("sbytes"), comm_size(c), stotal);
  std::vector<int> sdispls = displacements(scounts);
  void* in = send_scratch.get(stotal);
  void* out = const_cast<void*>(in_place_or(e, recv_scratch.get(rn)));
  int root = rank_field(e, "root", c);
  check(collective(form, PMPI_Scatterv, PMPI_Iscatterv, PMPI_Scatterv_init, in, scounts.data(), sdispls.data(), MPI_BYTE, out, rn, MPI_BYTE, root, c));
  started(e, form);
}

void RankReplay::allgather(const TraceEvent& e, Form form)
{
  int n = count(e.integer("bytes"));
  int rn = count(e.integer("rbytes"));
  MPI_Comm c = comm(e);
  long long size = comm_size(c);
  const void* in = in_place_or(e, send_scratch.get(n));
  void* out = recv_scratch.get(rn * size);
  check(collective(form, PMPI_Allgather, PMPI_Iallgather, PMPI_Allgather_init, in, n, MPI_BYTE, out, rn, MPI_BYTE, c));
  started(e, form);
}

void RankReplay::allgatherv(const TraceEvent& e, Form form)
{
  MPI_Comm c = comm(e);
  int n = count(e.integer("bytes"));
  long long rtotal = 0;
  std::vector<int> rcounts = counts(e.fields().at("rbytes"), comm_size(c), rtotal);
  std::vector<int> rdispls = displacements(rcounts);
  const void* in = in_place_or(e, send_scratch.get(n));
  void* out = recv_scratch.get(rtotal);
  check(collective(form, PMPI_Allgatherv, PMPI_Iallgatherv, PMPI_Allgatherv_init, in, n, MPI_BYTE, out, rcounts.data(), rdispls.data(), MPI_BYTE, c));
  started(e, form);
}

// The neighborhood collectives: per-neighbor sizes, checked against the
// degrees of the replay's communicator (by counts()).
void RankReplay::neighbor_allgather(const TraceEvent& e, Form form)
{
  int n = count(e.integer("bytes"));
  int rn = count(e.integer("rbytes"));
  MPI_Comm c = comm(e);
  long long in_degree = neighbor_degrees(rank_.id(), c).first;
  void* in = send_scratch.get(n);
  void* out = recv_scratch.get(rn * in_degree);
  check(collective(form, PMPI_Neighbor_allgather, PMPI_Ineighbor_allgather, PMPI_Neighbor_allgather_init, in, n, MPI_BYTE, out, rn, MPI_BYTE, c));
  started(e, form);
}

void RankReplay::neighbor_alltoall(const TraceEvent& e, Form form)
{
  int n = count(e.integer("bytes"));
  int rn = count(e.integer("rbytes"));
  MPI_Comm c = comm(e);
  auto [in_degree, out_degree] = neighbor_degrees(rank_.id(), c);
  void* in = send_scratch.get(n * static_cast<long long>(out_degree));
  void* out = recv_scratch.get(rn * static_cast<long long>(in_degree));
  check(collective(form, PMPI_Neighbor_alltoall, PMPI_Ineighbor_alltoall, PMPI_Neighbor_alltoall_init, in, n, MPI_BYTE, out, rn, MPI_BYTE, c));
  started(e, form);
}

void RankReplay::neighbor_allgatherv(const TraceEvent& e, Form form)
{
  MPI_Comm c = comm(e);
  int n = count(e.integer("bytes"));
  long long rtotal = 0;
  std::vector<int> rcounts = counts(e.fields().at("rbytes"), neighbor_degrees(rank_.id(), c).first, rtotal);
  std::vector<int> rdispls = displacements(rcounts);
  void* in = send_scratch.get(n);
  void* out = recv_scratch.get(rtotal);
  check(collective(form, PMPI_Neighbor_allgatherv, PMPI_Ineighbor_allgatherv, PMPI_Neighbor_allgatherv_init, in, n, MPI_BYTE, out, rcounts.data(), rdispls.data(), MPI_BYTE, c));
  started(e, form);
}

void RankReplay::neighbor_alltoallv(const TraceEvent& e, Form form)
{
  MPI_Comm c = comm(e);
  auto [in_degree, out_degree] = neighbor_degrees(rank_.id(), c);
  long long stotal = 0, rtotal = 0;
  std::vector<int> scounts = counts(e.fields().at("sbytes"), out_degree, stotal);
  std::vector<int> rcounts = counts(e.fields().at("rbytes"), in_degree, rtotal);
  std::vector<int> sdispls = displacements(scounts), rdispls = displacements(rcounts);
  void* in = send_scratch.get(stotal);
  void* out = recv_scratch.get(rtotal);
  check(collective(form, PMPI_Neighbor_alltoallv, PMPI_Ineighbor_alltoallv, PMPI_Neighbor_alltoallv_init, in, scounts.data(), sdispls.data(), MPI_BYTE, out, rcounts.data(), rdispls.data(), MPI_BYTE, c));
  started(e, form);
}

// MPI_Alltoallw and MPI_Neighbor_alltoallw: the per-peer bytes, MPI_BYTE at
// every peer; displacements in bytes (int for MPI_Alltoallw, MPI_Aint for
// the neighborhood form).
template <class Displ, class Blocking, class Nonblocking, class Persistent>
void RankReplay::w_exchange(const TraceEvent& e, Form form, int out_peers, int in_peers, Blocking blocking,
                            Nonblocking nonblocking, Persistent persistent)
{
  MPI_Comm c = comm(e);
  long long stotal = 0, rtotal = 0;
  std::vector<int> scounts = send_counts(e, out_peers, stotal);
  std::vector<int> rcounts = counts(e.fields().at("rbytes"), in_peers, rtotal);
  std::vector<int> sd = displacements(scounts), rd = displacements(rcounts);
  std::vector<Displ> sdispls(sd.begin(), sd.end()), rdispls(rd.begin(), rd.end());
  std::vector<MPI_Datatype> stypes(scounts.size(), MPI_BYTE), rtypes(rcounts.size(), MPI_BYTE);
  check(collective(form, blocking, nonblocking, persistent, in_place_or(e, send_scratch.get(stotal)), scounts.data(),
                   sdispls.data(), stypes.data(), recv_scratch.get(rtotal), rcounts.data(), rdispls.data(),
                   rtypes.data(), c));
  started(e, form);
}

void RankReplay::alltoallw(const TraceEvent& e, Form form)
{
  int size = comm_size(comm(e));
  w_exchange<int>(e, form, size, size, PMPI_Alltoallw, PMPI_Ialltoallw, PMPI_Alltoallw_init);
}

void RankReplay::neighbor_alltoallw(const TraceEvent& e, Form form)
{
  auto [in_degree, out_degree] = neighbor_degrees(rank_.id(), comm(e));
  w_exchange<MPI_Aint>(e, form, out_degree, in_degree, PMPI_Neighbor_alltoallw, PMPI_Ineighbor_alltoallw,
                       PMPI_Neighbor_alltoallw_init);
}

// The actions: each collective's function, blocking, nonblocking or persistent.
#define PROGSIM_COLLECTIVE_ACTIONS(kind)                                        \
  void RankReplay::replay_##kind(const TraceEvent& e) { kind(e, {}); }          \
  void RankReplay::replay_i##kind(const TraceEvent& e)                          \
  {                                                                             \
    MPI_Request request = MPI_REQUEST_NULL;                                     \
    kind(e, {&request, false});                                                 \
  }                                                                             \
  void RankReplay::replay_##kind##_init(const TraceEvent& e)                    \
  {                                                                             \
    MPI_Request request = MPI_REQUEST_NULL;                                     \
    kind(e, {&request, true});                                                  \
  }
PROGSIM_COLLECTIVE_ACTIONS(barrier)
PROGSIM_COLLECTIVE_ACTIONS(bcast)
PROGSIM_COLLECTIVE_ACTIONS(reduce)
PROGSIM_COLLECTIVE_ACTIONS(allreduce)
PROGSIM_COLLECTIVE_ACTIONS(scan)
PROGSIM_COLLECTIVE_ACTIONS(exscan)
PROGSIM_COLLECTIVE_ACTIONS(reduce_scatter_block)
PROGSIM_COLLECTIVE_ACTIONS(reduce_scatter)
PROGSIM_COLLECTIVE_ACTIONS(alltoall)
PROGSIM_COLLECTIVE_ACTIONS(alltoallv)
PROGSIM_COLLECTIVE_ACTIONS(alltoallw)
PROGSIM_COLLECTIVE_ACTIONS(gather)
PROGSIM_COLLECTIVE_ACTIONS(gatherv)
PROGSIM_COLLECTIVE_ACTIONS(scatter)
PROGSIM_COLLECTIVE_ACTIONS(scatterv)
PROGSIM_COLLECTIVE_ACTIONS(allgather)
PROGSIM_COLLECTIVE_ACTIONS(allgatherv)
PROGSIM_COLLECTIVE_ACTIONS(neighbor_allgather)
PROGSIM_COLLECTIVE_ACTIONS(neighbor_alltoall)
PROGSIM_COLLECTIVE_ACTIONS(neighbor_allgatherv)
PROGSIM_COLLECTIVE_ACTIONS(neighbor_alltoallv)
PROGSIM_COLLECTIVE_ACTIONS(neighbor_alltoallw)
#undef PROGSIM_COLLECTIVE_ACTIONS

// allreduce, scan, exscan: one shape (reduction_call).
void RankReplay::allreduce(const TraceEvent& e, Form form)
{
  reduction_call(e, form, PMPI_Allreduce, PMPI_Iallreduce, PMPI_Allreduce_init);
}

void RankReplay::scan(const TraceEvent& e, Form form)
{
  reduction_call(e, form, PMPI_Scan, PMPI_Iscan, PMPI_Scan_init);
}

void RankReplay::exscan(const TraceEvent& e, Form form)
{
  reduction_call(e, form, PMPI_Exscan, PMPI_Iexscan, PMPI_Exscan_init);
}

// --- communicators -----------------------------------------------------------

void RankReplay::replay_comm_dup(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Comm_dup(comm(e), &created));
  keep_comm(e, created);
}

// The info forms with MPI_INFO_NULL: the info is not recorded (it only sets
// hints that local calls read). MPI_Comm_idup draws its context id from
// the parent's count of idups, which the replay repeats in the program's
// order, so the duplicate matches as the program's did; its request is
// kept for the completion calls' events.
void RankReplay::replay_comm_dup_with_info(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Comm_dup_with_info(comm(e), MPI_INFO_NULL, &created));
  keep_comm(e, created);
}

void RankReplay::replay_comm_idup(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  MPI_Request handle = MPI_REQUEST_NULL;
  check(PMPI_Comm_idup(comm(e), &created, &handle));
  keep_comm(e, created);
  keep_request(e, handle);
}

void RankReplay::replay_comm_idup_with_info(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  MPI_Request handle = MPI_REQUEST_NULL;
  check(PMPI_Comm_idup_with_info(comm(e), MPI_INFO_NULL, &created, &handle));
  keep_comm(e, created);
  keep_request(e, handle);
}

void RankReplay::replay_comm_split(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Comm_split(comm(e), e.small("color"), e.small("key"), &created));
  keep_comm(e, created);
}

void RankReplay::replay_comm_split_type(const TraceEvent& e)
{
  std::string name = e.fields().at("split_type").get<std::string>();
  int type = split_type(name);
  if (type == -1)
    fail("unknown split type \"" + name + "\"");
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Comm_split_type(comm(e), type, e.small("key"), MPI_INFO_NULL, &created));
  keep_comm(e, created);
}

void RankReplay::replay_cart_create(const TraceEvent& e)
{
  std::vector<int> dims = e.fields().at("dims").get<std::vector<int>>();
  std::vector<int> periods = e.fields().at("periods").get<std::vector<int>>();
  if (periods.size() != dims.size())
    fail("cart_create: " + std::to_string(dims.size()) + " dims but " + std::to_string(periods.size()) + " periods");
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Cart_create(comm(e), static_cast<int>(dims.size()), dims.data(), periods.data(), e.small("reorder"),
                         &created));
  keep_comm(e, created);
}

void RankReplay::replay_cart_sub(const TraceEvent& e)
{
  std::vector<int> remain = e.fields().at("remain").get<std::vector<int>>();
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Cart_sub(comm(e), remain.data(), &created));
  keep_comm(e, created);
}

// Graph topologies, unweighted (weights only answer topology queries).
void RankReplay::replay_graph_create(const TraceEvent& e)
{
  std::vector<int> index = e.fields().at("index").get<std::vector<int>>();
  std::vector<int> edges = e.fields().at("edges").get<std::vector<int>>();
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Graph_create(comm(e), static_cast<int>(index.size()), index.data(), edges.data(), e.small("reorder"),
                          &created));
  keep_comm(e, created);
}

void RankReplay::replay_dist_graph_create_adjacent(const TraceEvent& e)
{
  std::vector<int> in = e.fields().at("sources").get<std::vector<int>>();
  std::vector<int> out = e.fields().at("destinations").get<std::vector<int>>();
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Dist_graph_create_adjacent(comm(e), static_cast<int>(in.size()), in.data(), MPI_UNWEIGHTED,
                                        static_cast<int>(out.size()), out.data(), MPI_UNWEIGHTED, MPI_INFO_NULL,
                                        e.small("reorder"), &created));
  keep_comm(e, created);
}

void RankReplay::replay_dist_graph_create(const TraceEvent& e)
{
  std::vector<int> sources = e.fields().at("sources").get<std::vector<int>>();
  std::vector<int> degrees = e.fields().at("degrees").get<std::vector<int>>();
  std::vector<int> destinations = e.fields().at("destinations").get<std::vector<int>>();
  if (degrees.size() != sources.size())
    fail("dist_graph_create: " + std::to_string(sources.size()) + " sources but " + std::to_string(degrees.size()) +
         " degrees");
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Dist_graph_create(comm(e), static_cast<int>(sources.size()), sources.data(), degrees.data(),
                               destinations.data(), MPI_UNWEIGHTED, MPI_INFO_NULL, e.small("reorder"), &created));
  keep_comm(e, created);
}

// Groups: made from the recorded MPI_COMM_WORLD ranks and freed after the
// call without an MPI call (the program's group calls are recorded as local
// calls already, and a group left over would be a leak at MPI_Finalize).
RankReplay::WorldGroup::~WorldGroup()
{
  mpi::MpiModel::instance().process(rank).groups.erase(handle);
}

RankReplay::WorldGroup RankReplay::world_group(const TraceEvent& e, const char* key, const char* session_key)
{
  std::vector<int> world = e.fields().at(key).get<std::vector<int>>();
  for (int r : world)
    if (r < 0 || r >= sim::Simulation::current()->size())
      fail(std::string(key) + ": " + std::to_string(r) + " is not a rank of MPI_COMM_WORLD");
  auto group = std::make_shared<mpi::Group>(world);
  if (session_key && e.has(session_key)) {
    auto found = sessions_.find(e.small(session_key));
    if (found == sessions_.end())
      fail(std::string(session_key) + ": session id " + std::to_string(e.small(session_key)) +
           " was not initialized earlier in rank " + std::to_string(rank_.id()) + "'s events");
    group->session = found->second;
  }
  return {rank_.id(), mpi::MpiModel::instance().process(rank_.id()).groups.insert(std::move(group))};
}

void RankReplay::replay_comm_create(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Comm_create(comm(e), world_group(e, "group").handle, &created));
  keep_comm(e, created);
}

void RankReplay::replay_comm_create_group(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Comm_create_group(comm(e), world_group(e, "group").handle, e.small("tag"), &created));
  keep_comm(e, created);
}

void RankReplay::replay_comm_create_from_group(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  std::string stringtag = e.fields().at("stringtag").get<std::string>();
  check(PMPI_Comm_create_from_group(world_group(e, "group", "session").handle, stringtag.c_str(), MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL,
                                    &created));
  keep_comm(e, created);
}

void RankReplay::replay_intercomm_create(const TraceEvent& e)
{
  MPI_Comm peer = e.small("peer_comm") < 0 ? MPI_COMM_NULL : comm(e, "peer_comm");
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Intercomm_create(comm(e), e.small("local_leader"), peer, e.small("remote_leader"), e.small("tag"),
                              &created));
  keep_comm(e, created);
}

void RankReplay::replay_intercomm_create_from_groups(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  std::string stringtag = e.fields().at("stringtag").get<std::string>();
  check(PMPI_Intercomm_create_from_groups(world_group(e, "local_group", "local_session").handle, e.small("local_leader"),
                                          world_group(e, "remote_group", "remote_session").handle, e.small("remote_leader"),
                                          stringtag.c_str(), MPI_INFO_NULL, MPI_ERRORS_ARE_FATAL, &created));
  keep_comm(e, created);
}

void RankReplay::replay_intercomm_merge(const TraceEvent& e)
{
  MPI_Comm created = MPI_COMM_NULL;
  check(PMPI_Intercomm_merge(comm(e), e.small("high"), &created));
  keep_comm(e, created);
}

void RankReplay::replay_comm_free(const TraceEvent& e)
{
  MPI_Comm handle = comm(e);
  check(PMPI_Comm_free(&handle));
  comms_.erase(e.small("comm"));
}

}  // namespace progsim::traces
