// One-sided communication (MPI-4.1 chapter 12): windows, the operations and
// their request-based forms, every synchronization. Windows get per-rank ids
// ("win"); an operation names its target rank in the window, the first byte
// it touches there ("disp", in bytes from the target's window base, or from
// the start of the target's attached region "region" in a dynamic window),
// and its size: bytes for put and get, elements of the target's predefined
// type with the operation for the accumulates (the data an accumulate moves
// is that of the target's elements, MPI-4.1 §12.3.4), with the target
// datatype's pieces when it is not one byte range ("pieces"). An attach
// names the regions still attached that it adjoins ("after", "before"). So a
// replay moves the same bytes to the same window places, in scratch memory
// laid out as the program's where an access could tell.
#include "traces/recorder/RecorderInternals.hpp"

#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"
#include "datatype/PrimitiveType.hpp"
#include "rma/AccessConflicts.hpp"
#include "rma/Operation.hpp"
#include "rma/RmaEngine.hpp"
#include "rma/Window.hpp"

namespace progsim::traces::recorder {

namespace {

mpi::rma::Window* window_of(int rank, MPI_Win win)
{
  return mpi::MpiModel::instance().rma().windows(rank).find(win);
}

Event window_event(const char* name, int rank, MPI_Win win)
{
  return {{"call", name}, {"win", window_id(rank, win)}};
}

// The layout of a target datatype that is not one dense byte range
// ("pieces", "extent", "items"): the model checks concurrent accesses
// byte range by byte range (rma/AccessConflicts, MPI-4.1 §12.7), so a
// replay that moved the contiguous bytes instead would find conflicts in
// the gaps between them that the program did not have (rma_semantics: a
// strided get beside another rank's accumulate to an element it skips).
// "pieces": one item's byte ranges, offset from the item's true lower
// bound and length, flattened; "extent": the item's extent; "items": their
// count. Not written for an item of more pieces than the model checks in
// one access (it checks none of them, AccessConflicts.hpp): docs/traces.md.
void add_pieces(Event& event, long long count, const dt::Datatype& type)
{
  if (count <= 0 || type.size() == 0 || type.is_dense() ||
      type.segment_count() > mpi::rma::EpochAccesses::kMaxPieces)
    return;
  std::vector<long long> pieces;
  type.for_each_segment([&](std::int64_t offset, std::int64_t length) {
    pieces.push_back(offset - type.true_lb());
    pieces.push_back(length);
  });
  event["pieces"] = pieces;
  event["extent"] = static_cast<long long>(type.extent());
  event["items"] = count;
}

// Where the operation's target data starts ("disp", and "region" in a
// dynamic window), from the target's window as the model holds it, and
// its layout there when it is not one byte range (add_pieces). An
// erroneous target (unknown window, rank outside it) keeps the program's
// displacement: its replay fails as the call did.
void add_target(Event& event, int rank, MPI_Win win, int target, MPI_Aint disp, long long count, MPI_Datatype type)
{
  event["target"] = target;
  event["disp"] = static_cast<long long>(disp);
  mpi::rma::Window* w = window_of(rank, win);
  auto t = mpi::MpiModel::instance().datatypes().find_live(type);
  if (!w || !t || target < 0 || target >= w->shared->size())
    return;
  add_pieces(event, count, *t);
  long long lo = mpi::rma::typed_span(count, *t).first;
  if (w->shared->flavor != mpi::rma::Flavor::Dynamic) {
    event["disp"] = static_cast<long long>(disp) * w->shared->parts[static_cast<std::size_t>(target)].disp_unit + lo;
    return;
  }
  // The region holding the first byte: the data may go on into regions
  // attached right after it (the model accepts an access that stays in
  // attached memory, PMPI's target_address), which the attach events of
  // the target name ("after"), so that the replay's regions are adjacent
  // too.
  const char* address = reinterpret_cast<const char*>(disp) + lo;
  RankRecord& holder = g_recorder->rank(w->shared->world_rank(target));
  for (const RankRecord::Attached& a : holder.attached[w->shared->id])
    if (address >= a.base && address < a.base + a.size) {
      event["disp"] = static_cast<long long>(address - a.base);
      event["region"] = a.region;
      return;
    }
  event["region"] = -1;  // not attached: the call fails (MPI_ERR_RMA_RANGE), and its replay
}

// The predefined type and number of the target's elements of an accumulate.
void add_elements(Event& event, long long count, MPI_Datatype type, MPI_Op op)
{
  auto t = mpi::MpiModel::instance().datatypes().find_live(type);
  std::optional<dt::PrimitiveId> p = t ? t->single_primitive() : std::nullopt;
  const char* name = p ? predefined_datatype_name(MPI_DATATYPE_NULL + dt::primitive_index(*p)) : nullptr;
  long long element = p ? dt::primitive_info(*p).size : 0;
  event["count"] = name && element > 0 ? t->size() * count / element : 0;
  event["dt"] = name ? name : "MPI_BYTE";
  const char* op_name = predefined_op_name(op);
  event["op"] = op_name ? op_name : "invalid";
}

// An operation, with "req" for the request-based forms.
template <class Call>
int record_operation(Event event, MPI_Request* request, Call call)
{
  int rank = recording_rank();
  if (request)
    return record_request(rank, event, request, call);
  g_recorder->write(rank, event);
  int err = call();
  g_recorder->returned(rank, {}, err != MPI_SUCCESS);
  return err;
}

template <class Call>
int record_transfer(const char* name, int origin_count, MPI_Datatype origin_type, int target, MPI_Aint disp,
                    int target_count, MPI_Datatype target_type, MPI_Win win, MPI_Request* request, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  Event event = window_event(name, rank, win);
  add_target(event, rank, win, target, disp, target_count, target_type);
  event["bytes"] = bytes_of(origin_type, origin_count);
  return record_operation(event, request, call);
}

template <class Call>
int record_accumulate(const char* name, int target, MPI_Aint disp, int target_count, MPI_Datatype target_type,
                      MPI_Op op, MPI_Win win, MPI_Request* request, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  Event event = window_event(name, rank, win);
  add_target(event, rank, win, target, disp, target_count, target_type);
  add_elements(event, target_count, target_type, op);
  return record_operation(event, request, call);
}

// A call that makes a window: its event gets the window's id ("win").
template <class Call>
int record_new_window(Event event, int rank, MPI_Win* win, Call call)
{
  int id = g_recorder->rank(rank).next_window++;
  event["win"] = id;
  g_recorder->write(rank, event);
  int err = call();
  if (err == MPI_SUCCESS && win && *win != MPI_WIN_NULL)
    g_recorder->rank(rank).windows[*win] = id;
  g_recorder->returned(rank, {}, err != MPI_SUCCESS);
  return err;
}

template <class Call>
int record_creation(const char* name, long long bytes, MPI_Comm comm, MPI_Win* win, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  Event event = {{"call", name}, {"comm", comm_id(rank, comm)}};
  if (bytes >= 0)
    event["bytes"] = bytes;
  return record_new_window(event, rank, win, call);
}

// A synchronization on a window: `add(event)` adds its fields.
template <class Add, class Call>
int record_sync(const char* name, MPI_Win win, Add add, Call call)
{
  int rank = recording_rank();
  if (rank < 0)
    return call();
  Event event = window_event(name, rank, win);
  add(event);
  g_recorder->write(rank, event);
  int err = call();
  g_recorder->returned(rank, {}, err != MPI_SUCCESS);
  return err;
}

template <class Call>
int record_sync(const char* name, MPI_Win win, Call call)
{
  return record_sync(name, win, [](Event&) {}, call);
}

// The regions still attached that the new one (`bytes` at `base`) adjoins:
// "after", the one it starts right after, "before", the one it ends right
// before. A dynamic window's target data only has to lie in attached
// memory (MPI-4.1 §12.2.4), so one access may span adjacent regions (as
// MPICH's win_dynamic_rma_flush_get does); a replay lays such regions out
// next to each other too (traces/replay/AttachedLayout.hpp).
void add_neighbours(Event& event, const std::vector<RankRecord::Attached>& attached, const char* base, MPI_Aint bytes)
{
  if (bytes <= 0 || !base)
    return;
  for (const RankRecord::Attached& a : attached) {
    if (a.size <= 0)
      continue;
    if (a.base + a.size == base)
      event["after"] = a.region;
    if (a.base == base + bytes)
      event["before"] = a.region;
  }
}

// PSCW groups as ranks of the window's group (MPI-4.1 §12.5.2).
std::vector<int> window_ranks(int rank, MPI_Win win, MPI_Group group)
{
  std::vector<int> ranks;
  mpi::rma::Window* w = window_of(rank, win);
  mpi::GroupPtr g = mpi::MpiModel::instance().process(rank).groups.find(group);
  if (w && g)
    for (int world : g->world_ranks())
      ranks.push_back(w->shared->group->local_rank(world));
  return ranks;
}

}  // namespace

}  // namespace progsim::traces::recorder

using namespace progsim::traces;
using namespace progsim::traces::recorder;
namespace mpi = progsim::mpi;

extern "C" {

// --- windows -----------------------------------------------------------------

int MPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win)
{
  PROGSIM_WRAPPER();
  return record_creation("win_create", size, comm, win,
                         [&] { return PMPI_Win_create(base, size, disp_unit, info, comm, win); });
}

int MPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win)
{
  PROGSIM_WRAPPER();
  return record_creation("win_allocate", size, comm, win,
                         [&] { return PMPI_Win_allocate(size, disp_unit, info, comm, baseptr, win); });
}

int MPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win)
{
  PROGSIM_WRAPPER();
  return record_creation("win_allocate_shared", size, comm, win,
                         [&] { return PMPI_Win_allocate_shared(size, disp_unit, info, comm, baseptr, win); });
}

int MPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win)
{
  PROGSIM_WRAPPER();
  return record_creation("win_create_dynamic", -1, comm, win,
                         [&] { return PMPI_Win_create_dynamic(info, comm, win); });
}

int MPI_Win_attach(MPI_Win win, void* base, MPI_Aint size)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Win_attach(win, base, size);
  RankRecord& r = g_recorder->rank(rank);
  int region = r.next_region++;
  Event event = window_event("win_attach", rank, win);
  event["bytes"] = static_cast<long long>(size);
  event["region"] = region;
  mpi::rma::Window* w = window_of(rank, win);
  if (w)
    add_neighbours(event, r.attached[w->shared->id], static_cast<const char*>(base), size);
  g_recorder->write(rank, event);
  int err = PMPI_Win_attach(win, base, size);
  if (err == MPI_SUCCESS && w)
    r.attached[w->shared->id].push_back({static_cast<const char*>(base), static_cast<long long>(size), region});
  g_recorder->returned(rank);
  return err;
}

int MPI_Win_detach(MPI_Win win, const void* base)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  mpi::rma::Window* w = rank < 0 ? nullptr : window_of(rank, win);
  if (rank < 0)
    return PMPI_Win_detach(win, base);
  std::vector<RankRecord::Attached>* regions = w ? &g_recorder->rank(rank).attached[w->shared->id] : nullptr;
  int region = -1;
  std::size_t at = 0;
  for (; regions && at < regions->size(); ++at)
    if ((*regions)[at].base == base) {
      region = (*regions)[at].region;
      break;
    }
  Event event = window_event("win_detach", rank, win);
  event["region"] = region;
  g_recorder->write(rank, event);
  int err = PMPI_Win_detach(win, base);
  if (err == MPI_SUCCESS && region >= 0)
    regions->erase(regions->begin() + static_cast<std::ptrdiff_t>(at));
  g_recorder->returned(rank);
  return err;
}

int MPI_Win_free(MPI_Win* win)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0 || !win)
    return PMPI_Win_free(win);
  MPI_Win handle = *win;
  mpi::rma::Window* w = window_of(rank, handle);
  int shared_id = w ? w->shared->id : -1;
  g_recorder->write(rank, window_event("win_free", rank, handle));
  int err = PMPI_Win_free(win);
  if (err == MPI_SUCCESS) {  // the handle may be reused by the next window
    g_recorder->rank(rank).windows.erase(handle);
    g_recorder->rank(rank).attached.erase(shared_id);
  }
  g_recorder->returned(rank, {}, err != MPI_SUCCESS);
  return err;
}

// --- operations --------------------------------------------------------------

int MPI_Put(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
            MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_transfer("put", origin_count, origin_datatype, target_rank, target_disp, target_count,
                         target_datatype, win, nullptr, [&] {
                           return PMPI_Put(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                           target_count, target_datatype, win);
                         });
}

int MPI_Get(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
            int target_count, MPI_Datatype target_datatype, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_transfer("get", origin_count, origin_datatype, target_rank, target_disp, target_count,
                         target_datatype, win, nullptr, [&] {
                           return PMPI_Get(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                           target_count, target_datatype, win);
                         });
}

int MPI_Rput(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
             MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_transfer("rput", origin_count, origin_datatype, target_rank, target_disp, target_count,
                         target_datatype, win, request, [&] {
                           return PMPI_Rput(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                            target_count, target_datatype, win, request);
                         });
}

int MPI_Rget(void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank, MPI_Aint target_disp,
             int target_count, MPI_Datatype target_datatype, MPI_Win win, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_transfer("rget", origin_count, origin_datatype, target_rank, target_disp, target_count,
                         target_datatype, win, request, [&] {
                           return PMPI_Rget(origin_addr, origin_count, origin_datatype, target_rank, target_disp,
                                            target_count, target_datatype, win, request);
                         });
}

int MPI_Accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                   MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_accumulate("accumulate", target_rank, target_disp, target_count, target_datatype, op, win, nullptr,
                           [&] {
                             return PMPI_Accumulate(origin_addr, origin_count, origin_datatype, target_rank,
                                                    target_disp, target_count, target_datatype, op, win);
                           });
}

int MPI_Raccumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, int target_rank,
                    MPI_Aint target_disp, int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win,
                    MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_accumulate("raccumulate", target_rank, target_disp, target_count, target_datatype, op, win, request,
                           [&] {
                             return PMPI_Raccumulate(origin_addr, origin_count, origin_datatype, target_rank,
                                                     target_disp, target_count, target_datatype, op, win, request);
                           });
}

int MPI_Get_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                       int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                       int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_accumulate("get_accumulate", target_rank, target_disp, target_count, target_datatype, op, win,
                           nullptr, [&] {
                             return PMPI_Get_accumulate(origin_addr, origin_count, origin_datatype, result_addr,
                                                        result_count, result_datatype, target_rank, target_disp,
                                                        target_count, target_datatype, op, win);
                           });
}

int MPI_Rget_accumulate(const void* origin_addr, int origin_count, MPI_Datatype origin_datatype, void* result_addr,
                        int result_count, MPI_Datatype result_datatype, int target_rank, MPI_Aint target_disp,
                        int target_count, MPI_Datatype target_datatype, MPI_Op op, MPI_Win win, MPI_Request* request)
{
  PROGSIM_WRAPPER();
  return record_accumulate("rget_accumulate", target_rank, target_disp, target_count, target_datatype, op, win,
                           request, [&] {
                             return PMPI_Rget_accumulate(origin_addr, origin_count, origin_datatype, result_addr,
                                                         result_count, result_datatype, target_rank, target_disp,
                                                         target_count, target_datatype, op, win, request);
                           });
}

int MPI_Fetch_and_op(const void* origin_addr, void* result_addr, MPI_Datatype datatype, int target_rank,
                     MPI_Aint target_disp, MPI_Op op, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_accumulate("fetch_and_op", target_rank, target_disp, 1, datatype, op, win, nullptr, [&] {
    return PMPI_Fetch_and_op(origin_addr, result_addr, datatype, target_rank, target_disp, op, win);
  });
}

int MPI_Compare_and_swap(const void* origin_addr, const void* compare_addr, void* result_addr, MPI_Datatype datatype,
                         int target_rank, MPI_Aint target_disp, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_accumulate("compare_and_swap", target_rank, target_disp, 1, datatype, MPI_REPLACE, win, nullptr, [&] {
    return PMPI_Compare_and_swap(origin_addr, compare_addr, result_addr, datatype, target_rank, target_disp, win);
  });
}

// --- synchronization ---------------------------------------------------------

int MPI_Win_fence(int assert, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_fence", win, [&](Event& e) { e["assert"] = assert; },
                     [&] { return PMPI_Win_fence(assert, win); });
}

int MPI_Win_post(MPI_Group group, int assert, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync(
      "win_post", win,
      [&](Event& e) {
        e["ranks"] = window_ranks(recording_rank(), win, group);
        e["assert"] = assert;
      },
      [&] { return PMPI_Win_post(group, assert, win); });
}

int MPI_Win_start(MPI_Group group, int assert, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync(
      "win_start", win,
      [&](Event& e) {
        e["ranks"] = window_ranks(recording_rank(), win, group);
        e["assert"] = assert;
      },
      [&] { return PMPI_Win_start(group, assert, win); });
}

int MPI_Win_complete(MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_complete", win, [&] { return PMPI_Win_complete(win); });
}

int MPI_Win_wait(MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_wait", win, [&] { return PMPI_Win_wait(win); });
}

// Written after the call, with its outcome, as MPI_Iprobe: never blocks.
int MPI_Win_test(MPI_Win win, int* flag)
{
  PROGSIM_WRAPPER();
  int rank = recording_rank();
  if (rank < 0)
    return PMPI_Win_test(win, flag);
  Event event = window_event("win_test", rank, win);
  event["flag"] = 0;
  until_returned(rank, event);
  int err = PMPI_Win_test(win, flag);
  returned_from(rank);
  event["flag"] = err == MPI_SUCCESS && flag && *flag ? 1 : 0;
  g_recorder->write(rank, event);
  g_recorder->returned(rank);
  return err;
}

int MPI_Win_lock(int lock_type, int target, int assert, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync(
      "win_lock", win,
      [&](Event& e) {
        e["lock"] = lock_type == MPI_LOCK_EXCLUSIVE ? "exclusive" : lock_type == MPI_LOCK_SHARED ? "shared" : "invalid";
        e["target"] = target;
        e["assert"] = assert;
      },
      [&] { return PMPI_Win_lock(lock_type, target, assert, win); });
}

int MPI_Win_unlock(int target, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_unlock", win, [&](Event& e) { e["target"] = target; },
                     [&] { return PMPI_Win_unlock(target, win); });
}

int MPI_Win_lock_all(int assert, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_lock_all", win, [&](Event& e) { e["assert"] = assert; },
                     [&] { return PMPI_Win_lock_all(assert, win); });
}

int MPI_Win_unlock_all(MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_unlock_all", win, [&] { return PMPI_Win_unlock_all(win); });
}

int MPI_Win_flush(int target, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_flush", win, [&](Event& e) { e["target"] = target; },
                     [&] { return PMPI_Win_flush(target, win); });
}

int MPI_Win_flush_local(int target, MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_flush_local", win, [&](Event& e) { e["target"] = target; },
                     [&] { return PMPI_Win_flush_local(target, win); });
}

int MPI_Win_flush_all(MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_flush_all", win, [&] { return PMPI_Win_flush_all(win); });
}

int MPI_Win_flush_local_all(MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_flush_local_all", win, [&] { return PMPI_Win_flush_local_all(win); });
}

int MPI_Win_sync(MPI_Win win)
{
  PROGSIM_WRAPPER();
  return record_sync("win_sync", win, [&] { return PMPI_Win_sync(win); });
}

}  // extern "C"
