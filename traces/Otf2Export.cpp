#include "traces/Otf2Export.hpp"

#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"

#include <algorithm>
#include <cctype>
#include <map>
#include <set>
#include <mpi.h>

namespace progsim::traces {

namespace {

constexpr int kNotCollective = -1;

struct CallSpec {
  const char* call;  // progsim trace event
  const char* region;
  OTF2_RegionRole role;
  int collective;  // OTF2_CollectiveOp, or kNotCollective
};

const CallSpec kCalls[] = {
    {"init", "MPI_Init", OTF2_REGION_ROLE_FUNCTION, kNotCollective},
    {"finalize", "MPI_Finalize", OTF2_REGION_ROLE_FUNCTION, kNotCollective},
    {"send", "MPI_Send", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"ssend", "MPI_Ssend", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"recv", "MPI_Recv", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"isend", "MPI_Isend", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"issend", "MPI_Issend", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"irecv", "MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"sendrecv", "MPI_Sendrecv", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"wait", "MPI_Wait", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"waitall", "MPI_Waitall", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"test", "MPI_Test", OTF2_REGION_ROLE_POINT2POINT, kNotCollective},
    {"barrier", "MPI_Barrier", OTF2_REGION_ROLE_BARRIER, OTF2_COLLECTIVE_OP_BARRIER},
    {"bcast", "MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_BCAST},
    {"reduce", "MPI_Reduce", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_REDUCE},
    {"allreduce", "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLREDUCE},
    {"reduce_scatter", "MPI_Reduce_scatter", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_REDUCE_SCATTER},
    {"reduce_scatter_block", "MPI_Reduce_scatter_block", OTF2_REGION_ROLE_COLL_ALL2ALL,
     OTF2_COLLECTIVE_OP_REDUCE_SCATTER_BLOCK},
    {"alltoall", "MPI_Alltoall", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALL},
    {"alltoallv", "MPI_Alltoallv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLTOALLV},
    {"gather", "MPI_Gather", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_GATHER},
    {"gatherv", "MPI_Gatherv", OTF2_REGION_ROLE_COLL_ALL2ONE, OTF2_COLLECTIVE_OP_GATHERV},
    {"scatter", "MPI_Scatter", OTF2_REGION_ROLE_COLL_ONE2ALL, OTF2_COLLECTIVE_OP_SCATTER},
    {"allgather", "MPI_Allgather", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLGATHER},
    {"allgatherv", "MPI_Allgatherv", OTF2_REGION_ROLE_COLL_ALL2ALL, OTF2_COLLECTIVE_OP_ALLGATHERV},
    {"comm_dup", "MPI_Comm_dup", OTF2_REGION_ROLE_FUNCTION, kNotCollective},
    {"comm_split", "MPI_Comm_split", OTF2_REGION_ROLE_FUNCTION, kNotCollective},
    {"comm_free", "MPI_Comm_free", OTF2_REGION_ROLE_FUNCTION, kNotCollective},
};

// The events that are not MPI calls of their own: computation, sleeps, the
// calls that only cost call time, refusals, and what follows a call.
bool is_call(const std::string& kind)
{
  static const std::set<std::string> not_calls = {"compute", "sleep", "local", "unsupported", "failed", "completed",
                                                  "cancelled"};
  return not_calls.count(kind) == 0;
}

// A nonblocking collective's event: its request id, which the blocking
// form's event does not have.
bool nonblocking(const nlohmann::ordered_json& event)
{
  return event.contains("req");
}

const CallSpec* listed_spec(const std::string& call)
{
  for (const CallSpec& spec : kCalls)
    if (call == spec.call)
      return &spec;
  return nullptr;
}

// Every other recorded call: in a region named after the MPI procedure (the
// event kind capitalized: neighbor_alltoallw_init ->
// MPI_Neighbor_alltoallw_init; a large-count form is named as its int form,
// which its event is). The nonblocking form of a listed collective
// (MPI-4.1 §6.12: ibcast) has its blocking form's role and operation, and
// the records Score-P writes for it (NonBlockingCollectiveRequest and
// Complete); the others (persistent collectives, the w forms, probes, ...)
// have Enter/Leave only, and one-sided calls their Otf2RmaExport records.
const CallSpec* spec_of(const std::string& call)
{
  if (const CallSpec* spec = listed_spec(call))
    return spec;
  if (!is_call(call))
    return nullptr;
  static std::map<std::string, std::pair<std::string, CallSpec>> others;
  auto found = others.find(call);
  if (found == others.end()) {
    std::string region = "MPI_" + call;
    region[4] = static_cast<char>(std::toupper(static_cast<unsigned char>(region[4])));
    found = others.emplace(call, std::make_pair(region, CallSpec{})).first;
    const CallSpec* blocking = call[0] == 'i' ? listed_spec(call.substr(1)) : nullptr;
    bool collective = blocking && blocking->collective != kNotCollective;
    found->second.second = {found->first.c_str(), found->second.first.c_str(),
                            collective ? blocking->role : static_cast<OTF2_RegionRole>(OTF2_REGION_ROLE_FUNCTION),
                            collective ? blocking->collective : kNotCollective};
  }
  return &found->second.second;
}

long long sum(const nlohmann::ordered_json& list)
{
  long long total = 0;
  for (const auto& item : list)
    total += item.get<long long>();
  return total;
}

long long number(const nlohmann::ordered_json& event, const char* key)
{
  auto found = event.find(key);
  return found != event.end() && found->is_number() ? found->get<long long>() : 0;
}


}  // namespace

long long element_bytes(const nlohmann::ordered_json& event, long long count)
{
  MPI_Datatype type = predefined_datatype(event.value("dt", "MPI_BYTE"));
  auto live = mpi::MpiModel::instance().datatypes().find_live(type);
  return count * (live ? live->size() : 1);
}

Otf2Export::Otf2Export(const std::string& dir, int nranks, CommMembers members)
    : writer_(dir, nranks), rma_(writer_, nranks), members_(std::move(members)),
      ranks_(static_cast<std::size_t>(nranks))
{
}

OTF2_CommRef Otf2Export::comm(int rank, const nlohmann::ordered_json& event)
{
  int id = event.value("comm", -1);
  if (id == 0)
    return Otf2Writer::kWorld;
  if (id == 1)
    return Otf2Writer::kSelf;
  auto& known = ranks_.at(static_cast<std::size_t>(rank)).comms;
  auto found = known.find(id);
  if (found != known.end())
    return found->second;
  CommView view = members_(rank, id);
  OTF2_CommRef ref = view.members ? writer_.comm(*view.members, view.context) : OTF2_UNDEFINED_COMM;
  if (view.members)  // the recorder never gives an id to another communicator
    known[id] = ref;
  return ref;
}

void Otf2Export::call(int rank, double time, const nlohmann::ordered_json& event)
{
  RankState& state = ranks_.at(static_cast<std::size_t>(rank));
  const CallSpec* spec = spec_of(event.at("call").get<std::string>());
  if (!spec)
    return;
  OTF2_EvtWriter* out = writer_.events(rank);
  OTF2_TimeStamp t = writer_.ticks(rank, time);
  state.open = event;
  state.region = writer_.region(spec->region, spec->role);
  OTF2_EvtWriter_Enter(out, nullptr, t, state.region);
  state.entered = t;
  if (spec->collective != kNotCollective && !nonblocking(event))
    OTF2_EvtWriter_MpiCollectiveBegin(out, nullptr, t);
}

// Written when the call returned without an error (a send that failed, e.g.
// MPI_ERR_BUFFER, sent nothing), stamped with the call's Enter as Score-P
// stamps them: no other record of the rank lies between.
void Otf2Export::started(int rank, RankState& state)
{
  OTF2_EvtWriter* out = writer_.events(rank);
  OTF2_TimeStamp t = state.entered;
  const nlohmann::ordered_json& event = state.open;
  std::string call = event.at("call").get<std::string>();
  const CallSpec* spec = spec_of(call);
  if (spec && spec->collective != kNotCollective && nonblocking(event)) {
    int req = event.at("req").get<int>();
    PendingRequest pending;
    pending.collective = collective_record(rank, event);
    pending.comm = pending.collective.comm;
    state.requests[req] = pending;
    OTF2_EvtWriter_NonBlockingCollectiveRequest(out, nullptr, t, static_cast<uint64_t>(req));
    return;
  }
  int peer = event.value("peer", -1);
  if ((call == "send" || call == "ssend" || call == "sendrecv") && peer >= 0)
    OTF2_EvtWriter_MpiSend(out, nullptr, t, static_cast<uint32_t>(peer), comm(rank, event),
                           event.at("tag").get<uint32_t>(), event.at("bytes").get<uint64_t>());
  else if (call == "isend" || call == "issend" || call == "irecv") {
    int req = event.at("req").get<int>();
    // MPI_PROC_NULL: no message, no event (as Score-P). MPI_ANY_SOURCE is fine
    // for a receive: the sender is written at completion.
    if (peer == MPI_PROC_NULL || (peer < 0 && call != "irecv"))
      return;
    state.requests[req] = {call == "irecv", comm(rank, event), {}};
    if (call == "irecv")
      OTF2_EvtWriter_MpiIrecvRequest(out, nullptr, t, static_cast<uint64_t>(req));
    else
      OTF2_EvtWriter_MpiIsend(out, nullptr, t, static_cast<uint32_t>(peer), comm(rank, event),
                              event.at("tag").get<uint32_t>(), event.at("bytes").get<uint64_t>(),
                              static_cast<uint64_t>(req));
  }
}

void Otf2Export::returned(int rank, double time, const std::vector<Completion>& completions, bool failed)
{
  RankState& state = ranks_.at(static_cast<std::size_t>(rank));
  if (state.open.is_null())
    return;
  if (!failed)
    started(rank, state);
  OTF2_EvtWriter* out = writer_.events(rank);
  OTF2_TimeStamp t = writer_.ticks(rank, time);
  const nlohmann::ordered_json& event = state.open;
  std::string call = event.at("call").get<std::string>();
  if (!failed) {  // a window's communicator is defined only for its creation
    bool creates_window = event.contains("win") && event.contains("comm");
    rma_.returned(rank, state.entered, t, event, creates_window ? comm(rank, event) : OTF2_UNDEFINED_COMM);
  }
  for (const Completion& done : completions) {
    if (done.request >= 0 && rma_.completed(rank, t, done.request))
      continue;
    if (done.request < 0) {  // MPI_Recv, MPI_Sendrecv
      if (done.source >= 0)
        OTF2_EvtWriter_MpiRecv(out, nullptr, t, static_cast<uint32_t>(done.source), comm(rank, event),
                               static_cast<uint32_t>(done.tag), static_cast<uint64_t>(done.bytes));
      continue;
    }
    auto pending = state.requests.find(done.request);
    if (pending == state.requests.end())
      continue;  // a request to or from MPI_PROC_NULL
    const CollectiveRecord& coll = pending->second.collective;
    if (coll.op != kNotCollective)
      OTF2_EvtWriter_NonBlockingCollectiveComplete(out, nullptr, t, static_cast<OTF2_CollectiveOp>(coll.op), coll.comm,
                                                   coll.root, coll.sent, coll.received,
                                                   static_cast<uint64_t>(done.request));
    else if (!pending->second.receive)
      OTF2_EvtWriter_MpiIsendComplete(out, nullptr, t, static_cast<uint64_t>(done.request));
    else if (done.source >= 0)
      OTF2_EvtWriter_MpiIrecv(out, nullptr, t, static_cast<uint32_t>(done.source), pending->second.comm,
                              static_cast<uint32_t>(done.tag), static_cast<uint64_t>(done.bytes),
                              static_cast<uint64_t>(done.request));
    state.requests.erase(pending);
  }
  const CallSpec* spec = spec_of(call);
  if (spec && spec->collective != kNotCollective && !nonblocking(event)) {
    CollectiveRecord coll = collective_record(rank, event);
    OTF2_EvtWriter_MpiCollectiveEnd(out, nullptr, t, static_cast<OTF2_CollectiveOp>(coll.op), coll.comm, coll.root,
                                    coll.sent, coll.received);
  }
  OTF2_EvtWriter_Leave(out, nullptr, t, state.region);
  state.open = nullptr;
}

// Byte counts as Score-P's MPI adapter gives them (scorep_mpi_coll.c): what
// the rank sends and receives in total, its own block included; a
// nonblocking collective's as its blocking form's.
Otf2Export::CollectiveRecord Otf2Export::collective_record(int rank, const nlohmann::ordered_json& event)
{
  std::string call = event.at("call").get<std::string>();
  const CallSpec* spec = spec_of(call);
  if (nonblocking(event))
    call.erase(0, 1);  // ibcast -> bcast
  CommView view = members_(rank, event.value("comm", -1));
  auto n = static_cast<long long>(view.members ? view.members->size() : 0);
  long long me = view.me;
  int root = event.value("root", -1);
  bool is_root = root >= 0 && root == me;
  long long bytes = number(event, "bytes");
  long long rbytes = number(event, "rbytes");  // per peer (a list for the v forms: summed below)
  long long sent = 0, received = 0;
  if (call == "bcast") {
    sent = is_root ? n * bytes : 0;
    received = bytes;
  } else if (call == "reduce") {
    long long b = element_bytes(event, event.at("count").get<long long>());
    sent = b;
    received = is_root ? n * b : 0;
  } else if (call == "allreduce") {
    long long b = element_bytes(event, event.at("count").get<long long>());
    sent = received = n * b;
  } else if (call == "reduce_scatter_block") {
    long long b = element_bytes(event, event.at("count").get<long long>());
    sent = n * b;
    received = b;
  } else if (call == "reduce_scatter") {
    const auto& counts = event.at("counts");
    sent = element_bytes(event, sum(counts));
    auto mine = static_cast<std::size_t>(me);
    received = mine < counts.size() ? element_bytes(event, counts[mine].get<long long>()) : 0;
  } else if (call == "alltoall" || call == "allgather") {
    sent = n * bytes;
    received = n * rbytes;
  } else if (call == "alltoallv") {
    sent = sum(event.at("sbytes"));
    received = sum(event.at("rbytes"));
  } else if (call == "gather") {
    sent = bytes;
    received = is_root ? n * rbytes : 0;
  } else if (call == "gatherv") {
    sent = bytes;
    received = is_root ? sum(event.at("rbytes")) : 0;
  } else if (call == "scatter") {
    sent = is_root ? n * bytes : 0;
    received = rbytes;
  } else if (call == "allgatherv") {
    sent = n * bytes;
    received = sum(event.at("rbytes"));
  }
  return {spec->collective, comm(rank, event), root >= 0 ? static_cast<uint32_t>(root) : OTF2_UNDEFINED_UINT32,
          static_cast<uint64_t>(sent), static_cast<uint64_t>(received)};
}

void Otf2Export::close(double end)
{
  for (std::size_t r = 0; r < ranks_.size(); ++r) {
    RankState& state = ranks_[r];
    if (state.open.is_null())
      continue;
    // A rank still in a call when the run ended (deadlock, time limit):
    // the call lasts until the end, as in the timeline.
    OTF2_TimeStamp t = writer_.ticks(static_cast<int>(r), end);
    OTF2_EvtWriter_Leave(writer_.events(static_cast<int>(r)), nullptr, t, state.region);
    state.open = nullptr;
  }
  writer_.close(end);
}

}  // namespace progsim::traces
