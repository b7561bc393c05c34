#include "traces/Otf2RmaExport.hpp"

#include "traces/Otf2Export.hpp"

#include <set>
#include <string>

namespace progsim::traces {

namespace {

bool is_creation(const std::string& call)
{
  return call == "win_create" || call == "win_allocate" || call == "win_allocate_shared" ||
         call == "win_create_dynamic";
}

bool is_operation(const std::string& call)
{
  static const std::set<std::string> operations = {
      "put", "get", "rput", "rget", "accumulate", "raccumulate", "get_accumulate", "rget_accumulate",
      "fetch_and_op", "compare_and_swap"};
  return operations.count(call) > 0;
}

// The synchronizations that complete the rank's operations on the window
// (MPI-4.1 §12.5): to every target, or to the event's "target" only.
bool completes_all(const std::string& call)
{
  return call == "win_fence" || call == "win_complete" || call == "win_unlock_all" || call == "win_flush_all" ||
         call == "win_flush_local_all";
}

bool completes_target(const std::string& call)
{
  return call == "win_unlock" || call == "win_flush" || call == "win_flush_local";
}

}  // namespace

Otf2RmaExport::Otf2RmaExport(Otf2Writer& writer, int nranks)
    : writer_(writer), ranks_(static_cast<std::size_t>(nranks))
{
}

bool Otf2RmaExport::returned(int rank, OTF2_TimeStamp entered, OTF2_TimeStamp left,
                             const nlohmann::ordered_json& event, OTF2_CommRef comm)
{
  auto win = event.find("win");
  if (win == event.end())
    return false;
  RankState& state = ranks_.at(static_cast<std::size_t>(rank));
  OTF2_EvtWriter* out = writer_.events(rank);
  std::string call = event.at("call").get<std::string>();
  int id = win->get<int>();
  if (is_creation(call)) {
    Window& w = state.windows[id];
    w = Window{};
    w.ref = writer_.window(comm, state.created[comm]++);
    OTF2_EvtWriter_RmaCollectiveBegin(out, nullptr, entered);
    OTF2_EvtWriter_RmaWinCreate(out, nullptr, left, w.ref);
    OTF2_EvtWriter_RmaCollectiveEnd(out, nullptr, left, OTF2_COLLECTIVE_OP_CREATE_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE,
                                    w.ref, OTF2_UNDEFINED_UINT32, 0, 0);
    return true;
  }
  auto found = state.windows.find(id);
  if (found == state.windows.end())
    return true;  // a window the recording does not know (its creation failed)
  Window& w = found->second;
  if (call == "win_free") {
    OTF2_EvtWriter_RmaCollectiveBegin(out, nullptr, entered);
    OTF2_EvtWriter_RmaWinDestroy(out, nullptr, left, w.ref);
    OTF2_EvtWriter_RmaCollectiveEnd(out, nullptr, left, OTF2_COLLECTIVE_OP_DESTROY_HANDLE, OTF2_RMA_SYNC_LEVEL_NONE,
                                    w.ref, OTF2_UNDEFINED_UINT32, 0, 0);
    state.windows.erase(found);
  } else if (is_operation(call)) {
    operation(rank, entered, event, w);
  } else if (call == "win_fence") {
    // A fence is collective over the window's group and synchronizes both
    // the processes and their memory.
    OTF2_EvtWriter_RmaCollectiveBegin(out, nullptr, entered);
    complete(rank, left, w, -1);
    OTF2_EvtWriter_RmaCollectiveEnd(out, nullptr, left, OTF2_COLLECTIVE_OP_BARRIER,
                                    OTF2_RMA_SYNC_LEVEL_PROCESS | OTF2_RMA_SYNC_LEVEL_MEMORY, w.ref,
                                    OTF2_UNDEFINED_UINT32, 0, 0);
  } else if (call == "win_lock") {
    int target = event.at("target").get<int>();
    if (target >= 0) {
      OTF2_LockType type = event.at("lock") == "shared" ? OTF2_LOCK_SHARED : OTF2_LOCK_EXCLUSIVE;
      std::uint64_t lock = w.locks[target] = state.next_lock++;
      OTF2_EvtWriter_RmaRequestLock(out, nullptr, entered, w.ref, static_cast<uint32_t>(target), lock, type);
      OTF2_EvtWriter_RmaAcquireLock(out, nullptr, left, w.ref, static_cast<uint32_t>(target), lock, type);
    }
  } else if (completes_all(call)) {
    complete(rank, left, w, -1);
  } else if (completes_target(call)) {
    int target = event.at("target").get<int>();
    complete(rank, left, w, target);
    auto lock = w.locks.find(target);
    if (call == "win_unlock" && lock != w.locks.end()) {
      OTF2_EvtWriter_RmaReleaseLock(out, nullptr, left, w.ref, static_cast<uint32_t>(target), lock->second);
      w.locks.erase(lock);
    }
  }
  return true;
}

// Score-P's sizes: what goes to the target (put, accumulate), what comes
// back (get, the fetching accumulates), in bytes.
void Otf2RmaExport::operation(int rank, OTF2_TimeStamp t, const nlohmann::ordered_json& event, Window& window)
{
  int target = event.at("target").get<int>();
  if (target < 0)  // MPI_PROC_NULL: no transfer
    return;
  RankState& state = ranks_.at(static_cast<std::size_t>(rank));
  OTF2_EvtWriter* out = writer_.events(rank);
  std::string call = event.at("call").get<std::string>();
  bool request_based = event.contains("req");
  if (request_based)
    call.erase(0, 1);  // rput -> put
  std::uint64_t id = state.next_operation++;
  auto remote = static_cast<uint32_t>(target);
  if (call == "put" || call == "get") {
    auto bytes = event.at("bytes").get<uint64_t>();
    if (call == "put")
      OTF2_EvtWriter_RmaPut(out, nullptr, t, window.ref, remote, bytes, id);
    else
      OTF2_EvtWriter_RmaGet(out, nullptr, t, window.ref, remote, bytes, id);
  } else {
    auto bytes = static_cast<uint64_t>(element_bytes(event, event.at("count").get<long long>()));
    OTF2_RmaAtomicType type = OTF2_RMA_ATOMIC_TYPE_FETCH_AND_ACCUMULATE;
    uint64_t sent = bytes, received = bytes;
    if (call == "accumulate") {
      type = OTF2_RMA_ATOMIC_TYPE_ACCUMULATE;
      received = 0;
    } else if (call == "compare_and_swap") {
      type = OTF2_RMA_ATOMIC_TYPE_COMPARE_AND_SWAP;
      sent = 2 * bytes;  // the new value and the one it is compared with
    }
    OTF2_EvtWriter_RmaAtomic(out, nullptr, t, window.ref, remote, type, sent, received, id);
  }
  if (request_based)
    state.requests[event.at("req").get<int>()] = {window.ref, id};
  else
    window.pending.push_back({target, id});
}

void Otf2RmaExport::complete(int rank, OTF2_TimeStamp t, Window& window, int target)
{
  OTF2_EvtWriter* out = writer_.events(rank);
  std::vector<Operation> left;
  for (const Operation& op : window.pending) {
    if (target >= 0 && op.target != target)
      left.push_back(op);
    else
      OTF2_EvtWriter_RmaOpCompleteBlocking(out, nullptr, t, window.ref, op.id);
  }
  window.pending = std::move(left);
}

bool Otf2RmaExport::completed(int rank, OTF2_TimeStamp t, int request)
{
  RankState& state = ranks_.at(static_cast<std::size_t>(rank));
  auto found = state.requests.find(request);
  if (found == state.requests.end())
    return false;
  OTF2_EvtWriter_RmaOpCompleteNonBlocking(writer_.events(rank), nullptr, t, found->second.first,
                                          found->second.second);
  state.requests.erase(found);
  return true;
}

}  // namespace progsim::traces
