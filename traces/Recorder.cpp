#include "traces/Recorder.hpp"

#include "traces/MpiNames.hpp"
#include "traces/NeighborDegrees.hpp"
#include "traces/Otf2Export.hpp"
#include "traces/TraceWriter.hpp"

#include "MpiModel.hpp"
#include "topology/CartesianTopology.hpp"
#include "sim/CallScope.hpp"
#include "sim/ProgramCallHook.hpp"

#include <mpi.h>

#include <cstring>
#include <algorithm>
#include <dlfcn.h>
#include <string_view>
#include <unordered_map>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace progsim::traces {

namespace {

using Event = nlohmann::ordered_json;

// What the recorder knows about one rank: its request and communicator ids.
struct RankRecord {
  int next_request = 0;
  int next_comm = 2;  // 0 MPI_COMM_WORLD, 1 MPI_COMM_SELF
  std::map<MPI_Request, int> requests;
  int next_message = 0;
  std::map<MPI_Message, int> messages;  // matched by MPI_Mprobe/MPI_Improbe, until received
  std::map<MPI_Comm, int> comms;
  std::map<int, MPI_Comm> comm_handles;  // the reverse of comms (the OTF2 export asks by id)
  // Local calls (MPI_Wtime, MPI_Comm_rank, ...) in a row are one event with
  // a repeat count: busy loops on MPI_Wtime would otherwise fill the trace.
  const char* local_name = nullptr;
  bool local_interacting = false;
  long long local_repeat = 0;
  int in_callback = 0;  // wrappers entered from a program callback inside MPI (WrapperEntry)
};

Otf2Export::CommView comm_members(int rank, int id);

class Recorder {
public:
  Recorder(const std::string& path, const std::string& otf2_dir, int nranks, const Event& about)
      : ranks_(static_cast<std::size_t>(nranks))
  {
    if (!path.empty())
      writer_ = std::make_unique<TraceWriter>(path, nranks, about);
    if (!otf2_dir.empty())
      otf2_ = std::make_unique<Otf2Export>(otf2_dir, nranks, comm_members);
  }

  RankRecord& rank(int id) { return ranks_.at(static_cast<std::size_t>(id)); }

  void write(int rank_id, const Event& event)
  {
    flush_local(rank_id);
    if (writer_)
      writer_->write(rank_id, event);
    if (otf2_)
      otf2_->call(rank_id, now(), event);
  }

  // The call last written returned (completing `done`).
  void returned(int rank_id, const std::vector<Completion>& done = {})
  {
    if (otf2_)
      otf2_->returned(rank_id, now(), done);
  }

  // Whether the calls' completions are wanted (only the OTF2 export needs them).
  bool wants_completions() const { return otf2_ != nullptr; }

  void finish(double end)
  {
    flush_all();
    if (otf2_)
      otf2_->close(end);
  }

  // `interacting`: the call is not a local query (sim::CallKind): it executes
  // the rank's deferred costs, and its replay must too.
  void local(int rank_id, const char* name, bool interacting = false)
  {
    RankRecord& r = rank(rank_id);
    if (r.local_name && std::strcmp(r.local_name, name) != 0)
      flush_local(rank_id);
    r.local_name = name;
    r.local_interacting = interacting;
    ++r.local_repeat;
  }

  void flush_local(int rank_id)
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

  void flush_all()
  {
    for (std::size_t i = 0; i < ranks_.size(); ++i)
      flush_local(static_cast<int>(i));
  }

private:
  static double now() { return sim::calling_rank()->clock().now(); }

  std::unique_ptr<TraceWriter> writer_;
  std::unique_ptr<Otf2Export> otf2_;
  std::vector<RankRecord> ranks_;
};

std::unique_ptr<Recorder> g_recorder;

// The rank calling now when a trace is being recorded, else -1.
int recording_rank()
{
  if (!g_recorder)
    return -1;
  sim::Rank* rank = sim::calling_rank();
  return rank && g_recorder->rank(rank->id()).in_callback == 0 ? rank->id() : -1;
}

long long bytes_of(MPI_Datatype type, long long count)
{
  auto t = mpi::MpiModel::instance().datatypes().find_live(type);
  return t ? t->size() * count : 0;
}

int comm_size(int rank, MPI_Comm comm)
{
  const mpi::Communicator* c = mpi::MpiModel::instance().communicators().find(comm, rank);
  return c ? c->size() : 0;
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

// The id a new request will get, and its handle once the call returned.
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
// After a completion call: handles set to MPI_REQUEST_NULL are forgotten.
void forget_request(int rank, MPI_Request before, MPI_Request after)
{
  if (after == MPI_REQUEST_NULL)
    g_recorder->rank(rank).requests.erase(before);
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

// What a receive's status says (the caller's, or one of the recorder's own
// when the caller ignores it).
Completion received(int request, const MPI_Status& status)
{
  long long bytes = static_cast<long long>(static_cast<unsigned>(status.count_lo)) |
                    (static_cast<long long>(static_cast<unsigned>(status.count_hi_and_cancelled) >> 1) << 32);
  return {request, status.MPI_SOURCE, status.MPI_TAG, bytes};
}

Event p2p(const char* call, int rank, int peer, int tag, MPI_Comm comm, long long bytes)
{
  return {{"call", call}, {"peer", peer}, {"tag", tag}, {"comm", comm_id(rank, comm)}, {"bytes", bytes}};
}

// Reductions keep count, datatype and operation when all are predefined;
// otherwise the same number of bytes reduced with MPI_BOR on MPI_BYTE.
void add_reduction(Event& event, int count, MPI_Datatype type, MPI_Op op)
{
  const char* type_name = predefined_datatype_name(type);
  const char* op_name = predefined_op_name(op);
  if (type_name && op_name) {
    event["count"] = count;
    event["dt"] = type_name;
    event["op"] = op_name;
  } else {
    event["count"] = bytes_of(type, count);
    event["dt"] = "MPI_BYTE";
    event["op"] = "MPI_BOR";
  }
}

std::vector<long long> byte_list(const int counts[], MPI_Datatype type, int n)
{
  std::vector<long long> list;
  if (!counts)
    return list;
  for (int i = 0; i < n; ++i)
    list.push_back(bytes_of(type, counts[i]));
  return list;
}

template <class Fn>
Fn next_symbol(const char* name)
{
  return reinterpret_cast<Fn>(::dlsym(RTLD_NEXT, name));
}

// What a recording does with a call it has no wrapper for
// (UnrecordedCalls.def): nullptr for a local call, else why it is refused.
const char* refusal_of(const char* name)
{
  static const std::unordered_map<std::string_view, const char*> classes = [] {
#define PROGSIM_REFUSAL(reason, text) const char* reason = text;
#define PROGSIM_LOCAL_CALL(name)
#define PROGSIM_REFUSED_CALL(name, reason)
#include "traces/UnrecordedCalls.def"
#undef PROGSIM_REFUSAL
#undef PROGSIM_LOCAL_CALL
#undef PROGSIM_REFUSED_CALL
    return std::unordered_map<std::string_view, const char*>{
#define PROGSIM_REFUSAL(reason, text)
#define PROGSIM_LOCAL_CALL(name) {#name, nullptr},
#define PROGSIM_REFUSED_CALL(name, reason) {#name, reason},
#include "traces/UnrecordedCalls.def"
#undef PROGSIM_REFUSAL
#undef PROGSIM_LOCAL_CALL
#undef PROGSIM_REFUSED_CALL
    };
  }();
  auto found = classes.find(name);
  return found == classes.end() ? "not classified in traces/UnrecordedCalls.def" : found->second;
}

void write_unsupported(int rank, const char* name, const char* why)
{
  g_recorder->write(rank, Event({{"call", "unsupported"}, {"name", name}, {"why", why}}));
}

// The generic hook (sim/ProgramCallHook.hpp): every call of the program
// that no wrapper below recorded.
void program_call(progsim::sim::Rank& rank, const char* name, bool local_query)
{
  if (!g_recorder)
    return;
  if (const char* why = refusal_of(name))
    write_unsupported(rank.id(), name, why);
  else
    g_recorder->local(rank.id(), name, !local_query);
}

// Opened first by every wrapper. A wrapper entered while its rank is inside
// an MPI call is a program callback calling MPI (an attribute delete
// function in MPI_Finalize, an error handler, a user reduction): a replay
// runs no callbacks, so such a call is refused (`name`; local calls, null
// `name`, are only left out) and nothing the callback calls is recorded.
class WrapperEntry {
public:
  explicit WrapperEntry(const char* name)
  {
    sim::Rank* rank = g_recorder ? sim::calling_rank() : nullptr;
    if (!rank || !rank->current_call())
      return;
    rank_ = rank->id();
    if (g_recorder->rank(rank_).in_callback++ == 0 && name)
      write_unsupported(rank_, name, (std::string("called from a program callback inside ") + rank->current_call() +
                                      ", which a replay does not run")
                                         .c_str());
  }
  ~WrapperEntry()
  {
    if (rank_ >= 0 && g_recorder)
      --g_recorder->rank(rank_).in_callback;
  }
  WrapperEntry(const WrapperEntry&) = delete;
  WrapperEntry& operator=(const WrapperEntry&) = delete;

private:
  int rank_ = -1;
};

}  // namespace

void start_recording(const std::string& path, const std::string& otf2_dir, int nranks,
                     const nlohmann::ordered_json& about)
{
  g_recorder = std::make_unique<Recorder>(path, otf2_dir, nranks, about);
  sim::set_program_call_hook(program_call);
}

void stop_recording(double end)
{
  sim::set_program_call_hook(nullptr);
  std::unique_ptr<Recorder> recorder = std::move(g_recorder);
  if (recorder)
    recorder->finish(end);
}

}  // namespace progsim::traces

using namespace progsim::traces;

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
    g_recorder->returned(rank_);              \
    return result_;                           \
  } while (0)
#define PROGSIM_RECORD_LOCAL(name, call)      \
  do {                                        \
    int rank_ = recording_rank();             \
    if (rank_ >= 0)                           \
      g_recorder->local(rank_, name);         \
    return call;                              \
  } while (0)

extern "C" {

int MPI_Init(int* argc, char*** argv)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "init"}}), PMPI_Init(argc, argv));
}

int MPI_Init_thread(int* argc, char*** argv, int required, int* provided)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "init"}}), PMPI_Init_thread(argc, argv, required, provided));
}

int MPI_Finalize(void)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "finalize"}}), PMPI_Finalize());
}

double MPI_Wtime(void)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Wtime", PMPI_Wtime());
}

int MPI_Comm_rank(MPI_Comm comm, int* rank)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Comm_rank", PMPI_Comm_rank(comm, rank));
}

int MPI_Comm_size(MPI_Comm comm, int* size)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Comm_size", PMPI_Comm_size(comm, size));
}

int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count)
{
  PROGSIM_LOCAL_WRAPPER();
  PROGSIM_RECORD_LOCAL("MPI_Get_count", PMPI_Get_count(status, datatype, count));
}

double progsim_compute(double seconds)
{
  static auto real = next_symbol<double (*)(double)>("progsim_compute");
  PROGSIM_RECORD(Event({{"call", "compute"}, {"s", seconds}}), real(seconds));
}

// progsim-cc links programs with --wrap=sleep (usleep, nanosleep): their
// calls land on __wrap_sleep, which libprogsim defines; record and forward.
unsigned int __wrap_sleep(unsigned int seconds)
{
  static auto real = next_symbol<unsigned int (*)(unsigned int)>("__wrap_sleep");
  PROGSIM_RECORD(Event({{"call", "sleep"}, {"s", static_cast<double>(seconds)}}), real(seconds));
}

int __wrap_usleep(useconds_t usec)
{
  static auto real = next_symbol<int (*)(useconds_t)>("__wrap_usleep");
  PROGSIM_RECORD(Event({{"call", "sleep"}, {"s", 1e-6 * usec}}), real(usec));
}

int __wrap_nanosleep(const struct timespec* req, struct timespec* rem)
{
  static auto real = next_symbol<int (*)(const struct timespec*, struct timespec*)>("__wrap_nanosleep");
  int rank = recording_rank();
  if (rank >= 0 && req && req->tv_nsec >= 0 && req->tv_nsec < 1000000000)
    g_recorder->write(rank, Event({{"call", "sleep"},
                                   {"s", static_cast<double>(req->tv_sec) + 1e-9 * static_cast<double>(req->tv_nsec)}}));
  return real(req, rem);
}

int MPI_Send(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("send", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Send(buf, count, type, dest, tag, comm));
}

int MPI_Ssend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("ssend", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Ssend(buf, count, type, dest, tag, comm));
}

int MPI_Recv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Recv(buf, count, type, source, tag, comm, status);
  g_recorder->write(rank, p2p("recv", rank, source, tag, comm, bytes_of(type, count)));
  MPI_Status own;
  MPI_Status* used = status == MPI_STATUS_IGNORE && g_recorder->wants_completions() ? &own : status;
  int err = PMPI_Recv(buf, count, type, source, tag, comm, used);
  if (used != MPI_STATUS_IGNORE)
    g_recorder->returned(rank, {received(-1, *used)});
  else
    g_recorder->returned(rank);
  if (used == &own && status != MPI_STATUS_IGNORE)
    *status = own;
  return err;
}

}  // extern "C"

namespace {

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
  g_recorder->returned(rank);
  return err;
}

// A call that makes a communicator: `make_event(rank)` gives its event,
// which gets the id of the communicator it makes ("newcomm").
template <class MakeEvent, class Call>
int record_new_comm(MakeEvent make_event, MPI_Comm* newcomm, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  int id = new_comm(rank);
  Event event = make_event(rank);
  event["newcomm"] = id;
  g_recorder->write(rank, event);
  int err = call();
  if (err == MPI_SUCCESS && newcomm)
    bind_comm(rank, id, *newcomm);
  g_recorder->returned(rank);
  return err;
}

// isend, issend, irecv, ibsend, irsend.
template <class Call>
int record_nonblocking(const char* name, int peer, int tag, MPI_Comm comm, long long bytes, MPI_Request* request,
                       Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  return record_request(rank, p2p(name, rank, peer, tag, comm, bytes), request, call);
}

}  // namespace

extern "C" {

int MPI_Isend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("isend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Isend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Issend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("issend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Issend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Irecv(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("irecv", source, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Irecv(buf, count, type, source, tag, comm, request); });
}

int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int source, int recvtag, MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank >= 0) {
    Event event = p2p("sendrecv", rank, dest, sendtag, comm, bytes_of(sendtype, sendcount));
    event["source"] = source;
    event["rtag"] = recvtag;
    event["rbytes"] = bytes_of(recvtype, recvcount);
    g_recorder->write(rank, event);
  }
  MPI_Status own;
  MPI_Status* used = rank >= 0 && status == MPI_STATUS_IGNORE && g_recorder->wants_completions() ? &own : status;
  int err = PMPI_Sendrecv(sendbuf, sendcount, sendtype, dest, sendtag, recvbuf, recvcount, recvtype, source,
                          recvtag, comm, used);
  if (rank >= 0 && used != MPI_STATUS_IGNORE)
    g_recorder->returned(rank, {received(-1, *used)});
  else if (rank >= 0)
    g_recorder->returned(rank);
  return err;
}

int MPI_Wait(MPI_Request* request, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !request)
    return PMPI_Wait(request, status);
  MPI_Request before = *request;
  int id = request_id(rank, before);
  g_recorder->write(rank, Event({{"call", "wait"}, {"req", id}}));
  MPI_Status own;
  MPI_Status* used = status == MPI_STATUS_IGNORE && g_recorder->wants_completions() ? &own : status;
  int err = PMPI_Wait(request, used);
  forget_request(rank, before, *request);
  if (used != MPI_STATUS_IGNORE)
    g_recorder->returned(rank, {received(id, *used)});
  else
    g_recorder->returned(rank);
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
  MPI_Status own;
  MPI_Status* used = status == MPI_STATUS_IGNORE && g_recorder->wants_completions() ? &own : status;
  int err = PMPI_Test(request, flag, used);
  forget_request(rank, before, *request);
  if (flag && *flag && used != MPI_STATUS_IGNORE)
    g_recorder->returned(rank, {received(id, *used)});
  else
    g_recorder->returned(rank);
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

int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm([&](int rank) { return Event({{"call", "comm_dup"}, {"comm", comm_id(rank, comm)}}); },
                         newcomm, [&] { return PMPI_Comm_dup(comm, newcomm); });
}

int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        return Event({{"call", "comm_split"}, {"comm", comm_id(rank, comm)}, {"color", color}, {"key", key}});
      },
      newcomm, [&] { return PMPI_Comm_split(comm, color, key, newcomm); });
}

// The info argument is not recorded: the model reads it only for the guided
// types, which are refused.
int MPI_Comm_split_type(MPI_Comm comm, int split_type, int key, MPI_Info info, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  if (int rank = recording_rank();
      rank >= 0 && (split_type == MPI_COMM_TYPE_HW_GUIDED || split_type == MPI_COMM_TYPE_RESOURCE_GUIDED)) {
    write_unsupported(rank, "MPI_Comm_split_type",
                      "a guided split type depends on its info argument, which the trace format does not hold");
    return PMPI_Comm_split_type(comm, split_type, key, info, newcomm);
  }
  return record_new_comm(
      [&](int rank) {
        const char* type_name = split_type_name(split_type);  // an invalid type fails in the call, and in its replay
        return Event({{"call", "comm_split_type"}, {"comm", comm_id(rank, comm)},
                      {"split_type", type_name ? type_name : "invalid"}, {"key", key}});
      },
      newcomm, [&] { return PMPI_Comm_split_type(comm, split_type, key, info, newcomm); });
}

int MPI_Cart_create(MPI_Comm comm, int ndims, const int dims[], const int periods[], int reorder, MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        std::vector<int> d(dims, dims + std::max(ndims, 0)), p(periods, periods + std::max(ndims, 0));
        return Event({{"call", "cart_create"}, {"comm", comm_id(rank, comm)}, {"dims", d}, {"periods", p},
                      {"reorder", reorder}});
      },
      newcomm, [&] { return PMPI_Cart_create(comm, ndims, dims, periods, reorder, newcomm); });
}

int MPI_Cart_sub(MPI_Comm comm, const int remain_dims[], MPI_Comm* newcomm)
{
  PROGSIM_WRAPPER();
  return record_new_comm(
      [&](int rank) {
        int ndims = 0;
        // The model's topology, not PMPI_Cartdim_get: a call would cost time the program did not spend.
        const progsim::mpi::Communicator* c = progsim::mpi::MpiModel::instance().communicators().find(comm, rank);
        auto cart = c ? dynamic_cast<const progsim::mpi::topology::CartesianTopology*>(c->topology.get()) : nullptr;
        if (cart)
          ndims = cart->ndims();
        std::vector<int> remain(remain_dims, remain_dims + (remain_dims ? ndims : 0));
        return Event({{"call", "cart_sub"}, {"comm", comm_id(rank, comm)}, {"remain", remain}});
      },
      newcomm, [&] { return PMPI_Cart_sub(comm, remain_dims, newcomm); });
}

int MPI_Comm_free(MPI_Comm* comm)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !comm)
    return PMPI_Comm_free(comm);
  MPI_Comm before = *comm;
  g_recorder->write(rank, Event({{"call", "comm_free"}, {"comm", comm_id(rank, before)}}));
  int err = PMPI_Comm_free(comm);
  if (err == MPI_SUCCESS) {
    RankRecord& r = g_recorder->rank(rank);
    if (auto found = r.comms.find(before); found != r.comms.end()) {
      r.comm_handles.erase(found->second);
      r.comms.erase(found);
    }
  }
  g_recorder->returned(rank);
  return err;
}

}  // extern "C"

// --- calls recorded since issue 19 -------------------------------------------

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

extern "C" {

int MPI_Bsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("bsend", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Bsend(buf, count, type, dest, tag, comm));
}

int MPI_Rsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(p2p("rsend", rank_, dest, tag, comm, bytes_of(type, count)),
                 PMPI_Rsend(buf, count, type, dest, tag, comm));
}

int MPI_Ibsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("ibsend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Ibsend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Irsend(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("irsend", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Irsend(buf, count, type, dest, tag, comm, request); });
}

int MPI_Buffer_attach(void* buffer, int size)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "buffer_attach"}, {"bytes", size}}), PMPI_Buffer_attach(buffer, size));
}

int MPI_Buffer_detach(void* buffer_addr, int* size)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "buffer_detach"}}), PMPI_Buffer_detach(buffer_addr, size));
}

int MPI_Probe(int source, int tag, MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "probe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank_, comm)}}),
                 PMPI_Probe(source, tag, comm, status));
}

// Written after the call, with its outcome: MPI_Iprobe never blocks.
int MPI_Iprobe(int source, int tag, MPI_Comm comm, int* flag, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Iprobe(source, tag, comm, flag, status);
  int err = PMPI_Iprobe(source, tag, comm, flag, status);
  g_recorder->write(rank, Event({{"call", "iprobe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank, comm)},
                                 {"flag", flag && *flag ? 1 : 0}}));
  g_recorder->returned(rank);
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
  int err = PMPI_Request_free(request);
  forget_request(rank, before, *request);
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

// Persistent point-to-point: the *_init event carries the request's id,
// which each start reuses; the request is forgotten when MPI_Request_free
// sets it to MPI_REQUEST_NULL.
int MPI_Send_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                  MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("send_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Send_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Ssend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("ssend_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Ssend_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Bsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("bsend_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Bsend_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Rsend_init(const void* buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm,
                   MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("rsend_init", dest, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Rsend_init(buf, count, type, dest, tag, comm, request); });
}

int MPI_Recv_init(void* buf, int count, MPI_Datatype type, int source, int tag, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_nonblocking("recv_init", source, tag, comm, bytes_of(type, count), request,
                            [&] { return PMPI_Recv_init(buf, count, type, source, tag, comm, request); });
}

int MPI_Start(MPI_Request* request)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "start"}, {"req", request ? request_id(rank_, *request) : -1}}), PMPI_Start(request));
}

int MPI_Startall(int count, MPI_Request requests[])
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !requests || count < 0)
    return PMPI_Startall(count, requests);
  std::vector<int> ids;
  for (int i = 0; i < count; ++i)
    ids.push_back(request_id(rank, requests[i]));
  g_recorder->write(rank, Event({{"call", "startall"}, {"reqs", ids}}));
  int err = PMPI_Startall(count, requests);
  g_recorder->returned(rank);
  return err;
}

}  // extern "C"

// --- collectives ---------------------------------------------------------------

namespace {

// The event of a collective, shared by its blocking and nonblocking forms
// (the nonblocking one adds "req").
Event comm_event(const char* name, int rank, MPI_Comm comm)
{
  return {{"call", name}, {"comm", comm_id(rank, comm)}};
}

Event reduction_event(const char* name, int rank, MPI_Comm comm, int count, MPI_Datatype type, MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  add_reduction(event, count, type, op);
  return event;
}

Event rooted_reduction_event(const char* name, int rank, MPI_Comm comm, int root, int count, MPI_Datatype type,
                             MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  add_reduction(event, count, type, op);
  return event;
}

Event reduce_scatter_event(const char* name, int rank, MPI_Comm comm, const int counts[], MPI_Datatype type, MPI_Op op)
{
  Event event = comm_event(name, rank, comm);
  int n = comm_size(rank, comm);
  bool predefined = predefined_datatype_name(type) && predefined_op_name(op);
  std::vector<long long> list;
  for (int i = 0; counts && i < n; ++i)
    list.push_back(predefined ? counts[i] : bytes_of(type, counts[i]));
  add_reduction(event, 0, type, op);
  event.erase("count");
  event["counts"] = list;
  return event;
}

// alltoall, allgather: what goes to and comes from each peer.
Event exchange_event(const char* name, int rank, MPI_Comm comm, int sendcount, MPI_Datatype sendtype, int recvcount,
                     MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

// gather, scatter.
Event rooted_exchange_event(const char* name, int rank, MPI_Comm comm, int root, int sendcount,
                            MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

Event bcast_event(const char* name, int rank, MPI_Comm comm, int root, int count, MPI_Datatype type)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(type, count);
  return event;
}

// Whether the calling rank is `root` of `comm`.
bool is_root(int rank, MPI_Comm comm, int root)
{
  const progsim::mpi::Communicator* c = progsim::mpi::MpiModel::instance().communicators().find(comm, rank);
  return c && root >= 0 && root < c->size() && c->world_rank(root) == rank;
}

// gatherv: the list of sizes is the root's (empty at the others).
Event gatherv_event(const char* name, int rank, MPI_Comm comm, int root, int sendcount, MPI_Datatype sendtype,
                    const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = is_root(rank, comm, root) ? byte_list(recvcounts, recvtype, comm_size(rank, comm))
                                              : std::vector<long long>{};
  return event;
}

// scatterv: the list of sizes is the root's (empty at the others).
Event scatterv_event(const char* name, int rank, MPI_Comm comm, int root, const int sendcounts[],
                     MPI_Datatype sendtype, int recvcount, MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["root"] = root;
  event["sbytes"] = is_root(rank, comm, root) ? byte_list(sendcounts, sendtype, comm_size(rank, comm))
                                              : std::vector<long long>{};
  event["rbytes"] = bytes_of(recvtype, recvcount);
  return event;
}

Event allgatherv_event(const char* name, int rank, MPI_Comm comm, int sendcount, MPI_Datatype sendtype,
                       const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = byte_list(recvcounts, recvtype, comm_size(rank, comm));
  return event;
}

Event alltoallv_event(const char* name, int rank, MPI_Comm comm, const int sendcounts[], MPI_Datatype sendtype,
                      const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  int n = comm_size(rank, comm);
  event["sbytes"] = byte_list(sendcounts, sendtype, n);
  event["rbytes"] = byte_list(recvcounts, recvtype, n);
  return event;
}

// A nonblocking collective: `make_event(rank)` gives its event without the request id.
template <class MakeEvent, class Call>
int record_icollective(MakeEvent make_event, MPI_Request* request, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  return record_request(rank, make_event(rank), request, call);
}

}  // namespace

extern "C" {

int MPI_Barrier(MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(comm_event("barrier", rank_, comm), PMPI_Barrier(comm));
}

int MPI_Bcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(bcast_event("bcast", rank_, comm, root, count, type), PMPI_Bcast(buf, count, type, root, comm));
}

int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(rooted_reduction_event("reduce", rank_, comm, root, count, type, op), PMPI_Reduce(sendbuf, recvbuf, count, type, op, root, comm));
}

int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("allreduce", rank_, comm, count, type, op), PMPI_Allreduce(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("scan", rank_, comm, count, type, op), PMPI_Scan(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("exscan", rank_, comm, count, type, op), PMPI_Exscan(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduction_event("reduce_scatter_block", rank_, comm, count, type, op), PMPI_Reduce_scatter_block(sendbuf, recvbuf, count, type, op, comm));
}

int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int counts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(reduce_scatter_event("reduce_scatter", rank_, comm, counts, type, op), PMPI_Reduce_scatter(sendbuf, recvbuf, counts, type, op, comm));
}

int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("alltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("allgather", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(rooted_exchange_event("gather", rank_, comm, root, sendcount, sendtype, recvcount, recvtype), PMPI_Gather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(rooted_exchange_event("scatter", rank_, comm, root, sendcount, sendtype, recvcount, recvtype), PMPI_Scatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(alltoallv_event("alltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype), PMPI_Alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(gatherv_event("gatherv", rank_, comm, root, sendcount, sendtype, recvcounts, recvtype), PMPI_Gatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm));
}

int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(scatterv_event("scatterv", rank_, comm, root, sendcounts, sendtype, recvcount, recvtype), PMPI_Scatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm));
}

int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(allgatherv_event("allgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype), PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}

// Nonblocking collectives: the blocking form's event and the request id.

int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return comm_event("ibarrier", rank_, comm); }, request, [&] { return PMPI_Ibarrier(comm, request); });
}

int MPI_Ibcast(void* buf, int count, MPI_Datatype type, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return bcast_event("ibcast", rank_, comm, root, count, type); }, request, [&] { return PMPI_Ibcast(buf, count, type, root, comm, request); });
}

int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return rooted_reduction_event("ireduce", rank_, comm, root, count, type, op); }, request, [&] { return PMPI_Ireduce(sendbuf, recvbuf, count, type, op, root, comm, request); });
}

int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("iallreduce", rank_, comm, count, type, op); }, request, [&] { return PMPI_Iallreduce(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("iscan", rank_, comm, count, type, op); }, request, [&] { return PMPI_Iscan(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("iexscan", rank_, comm, count, type, op); }, request, [&] { return PMPI_Iexscan(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int count, MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduction_event("ireduce_scatter_block", rank_, comm, count, type, op); }, request, [&] { return PMPI_Ireduce_scatter_block(sendbuf, recvbuf, count, type, op, comm, request); });
}

int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int counts[], MPI_Datatype type, MPI_Op op, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return reduce_scatter_event("ireduce_scatter", rank_, comm, counts, type, op); }, request, [&] { return PMPI_Ireduce_scatter(sendbuf, recvbuf, counts, type, op, comm, request); });
}

int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("ialltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Ialltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("iallgather", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Iallgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return rooted_exchange_event("igather", rank_, comm, root, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Igather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request); });
}

int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return rooted_exchange_event("iscatter", rank_, comm, root, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Iscatter(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, root, comm, request); });
}

int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return alltoallv_event("ialltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Ialltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request); });
}

int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return gatherv_event("igatherv", rank_, comm, root, sendcount, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Igatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, root, comm, request); });
}

int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[], MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return scatterv_event("iscatterv", rank_, comm, root, sendcounts, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Iscatterv(sendbuf, sendcounts, displs, sendtype, recvbuf, recvcount, recvtype, root, comm, request); });
}

int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return allgatherv_event("iallgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Iallgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request); });
}

}  // extern "C"

// --- matched probes and MPI_Sendrecv_replace ---------------------------------

namespace {

// A matched message's id: per rank, in matching order; -1 stands for
// MPI_MESSAGE_NO_PROC (a probe of MPI_PROC_NULL), -2 for an unknown handle.
int bind_message(int rank, MPI_Message message)
{
  if (message == MPI_MESSAGE_NO_PROC)
    return -1;
  RankRecord& r = g_recorder->rank(rank);
  int id = r.next_message++;
  r.messages[message] = id;
  return id;
}

// Forgets the message a receive takes (its handle is reused afterwards).
int take_message(int rank, MPI_Message message)
{
  if (message == MPI_MESSAGE_NO_PROC)
    return -1;
  auto& messages = g_recorder->rank(rank).messages;
  auto found = messages.find(message);
  if (found == messages.end())
    return -2;
  int id = found->second;
  messages.erase(found);
  return id;
}

}  // namespace

extern "C" {

int MPI_Sendrecv_replace(void* buf, int count, MPI_Datatype type, int dest, int sendtag, int source, int recvtag,
                         MPI_Comm comm, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "sendrecv_replace"}, {"peer", dest}, {"tag", sendtag}, {"bytes", bytes_of(type, count)},
                        {"source", source}, {"rtag", recvtag}, {"comm", comm_id(rank_, comm)}}),
                 PMPI_Sendrecv_replace(buf, count, type, dest, sendtag, source, recvtag, comm, status));
}

// Written after the call, which may block: the event carries the message's id.
int MPI_Mprobe(int source, int tag, MPI_Comm comm, MPI_Message* message, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !message)
    return PMPI_Mprobe(source, tag, comm, message, status);
  Event event = {{"call", "mprobe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank, comm)}};
  int err = PMPI_Mprobe(source, tag, comm, message, status);
  event["msg"] = err == MPI_SUCCESS ? bind_message(rank, *message) : -2;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

int MPI_Improbe(int source, int tag, MPI_Comm comm, int* flag, MPI_Message* message, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !message || !flag)
    return PMPI_Improbe(source, tag, comm, flag, message, status);
  int err = PMPI_Improbe(source, tag, comm, flag, message, status);
  Event event = {{"call", "improbe"}, {"peer", source}, {"tag", tag}, {"comm", comm_id(rank, comm)},
                 {"flag", *flag ? 1 : 0}};
  if (*flag)
    event["msg"] = err == MPI_SUCCESS ? bind_message(rank, *message) : -2;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

int MPI_Mrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Status* status)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(Event({{"call", "mrecv"}, {"msg", message ? take_message(rank_, *message) : -2},
                        {"bytes", bytes_of(type, count)}}),
                 PMPI_Mrecv(buf, count, type, message, status));
}

int MPI_Imrecv(void* buf, int count, MPI_Datatype type, MPI_Message* message, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Imrecv(buf, count, type, message, request);
  return record_request(rank,
                        Event({{"call", "imrecv"}, {"msg", message ? take_message(rank, *message) : -2},
                               {"bytes", bytes_of(type, count)}}),
                        request, [&] { return PMPI_Imrecv(buf, count, type, message, request); });
}

}  // extern "C"

// --- neighborhood collectives -------------------------------------------------

namespace {

Event neighbor_allgatherv_event(const char* name, int rank, MPI_Comm comm, int sendcount, MPI_Datatype sendtype,
                                const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  event["bytes"] = bytes_of(sendtype, sendcount);
  event["rbytes"] = byte_list(recvcounts, recvtype, neighbor_degrees(rank, comm).first);
  return event;
}

Event neighbor_alltoallv_event(const char* name, int rank, MPI_Comm comm, const int sendcounts[],
                               MPI_Datatype sendtype, const int recvcounts[], MPI_Datatype recvtype)
{
  Event event = comm_event(name, rank, comm);
  auto [in, out] = neighbor_degrees(rank, comm);
  event["sbytes"] = byte_list(sendcounts, sendtype, out);
  event["rbytes"] = byte_list(recvcounts, recvtype, in);
  return event;
}

}  // namespace

extern "C" {

int MPI_Neighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("neighbor_allgather", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Neighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Neighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(exchange_event("neighbor_alltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype), PMPI_Neighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm));
}

int MPI_Neighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(neighbor_allgatherv_event("neighbor_allgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype), PMPI_Neighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm));
}

int MPI_Neighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm)
{
  PROGSIM_WRAPPER();
  PROGSIM_RECORD(neighbor_alltoallv_event("neighbor_alltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype), PMPI_Neighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm));
}

int MPI_Ineighbor_allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("ineighbor_allgather", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Ineighbor_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Ineighbor_alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return exchange_event("ineighbor_alltoall", rank_, comm, sendcount, sendtype, recvcount, recvtype); }, request, [&] { return PMPI_Ineighbor_alltoall(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, request); });
}

int MPI_Ineighbor_allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return neighbor_allgatherv_event("ineighbor_allgatherv", rank_, comm, sendcount, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Ineighbor_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, request); });
}

int MPI_Ineighbor_alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[], MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_icollective([&](int rank_) { return neighbor_alltoallv_event("ineighbor_alltoallv", rank_, comm, sendcounts, sendtype, recvcounts, recvtype); }, request, [&] { return PMPI_Ineighbor_alltoallv(sendbuf, sendcounts, sdispls, sendtype, recvbuf, recvcounts, rdispls, recvtype, comm, request); });
}

}  // extern "C"
