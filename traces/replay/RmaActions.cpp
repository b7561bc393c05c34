// The replay of one-sided communication (TraceEvents.def, format version 2):
// windows of the recorded flavors and sizes over scratch memory (the data
// does not matter: what is moved, where and in which epochs does), each
// operation on the recorded target bytes as contiguous bytes, or elements
// of its predefined type for the accumulates (laid out as the program's
// target datatype when the trace has its "pieces"), and every
// synchronization as recorded. Displacements are in bytes: every replayed
// window has a displacement unit of 1. Dynamic windows' attached regions
// are laid out by AttachedLayout.
#include "traces/replay/RankReplay.hpp"
#include "traces/replay/Scratch.hpp"

#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"
#include "core/Group.hpp"
#include "datatype/TypeConstructors.hpp"
#include "rma/AttachedRegions.hpp"
#include "rma/RmaEngine.hpp"
#include "rma/Window.hpp"

#include <limits>
#include <new>
#include <stdexcept>
#include <tuple>

namespace progsim::traces {

namespace {

// Memory attached to dynamic windows, by (the replay's window number, the
// attaching rank in it, the trace's region id): an origin finds its
// target's address there, as the program found it in a message.
std::map<std::tuple<int, int, int>, char*> attached_regions;

mpi::rma::Window& model_window(int rank, MPI_Win handle)
{
  return *mpi::MpiModel::instance().rma().windows(rank).find(handle);
}

}  // namespace

RankReplay::ReplayWindow& RankReplay::window(const TraceEvent& e)
{
  int id = e.small("win");
  auto found = windows_.find(id);
  if (found == windows_.end() || found->second.handle == MPI_WIN_NULL)
    fail("window id " + std::to_string(id) + " was not created earlier in rank " + std::to_string(rank_.id()) +
         "'s events");
  return found->second;
}

template <class Create>
void RankReplay::create_window(const TraceEvent& e, Create create)
{
  ReplayWindow& w = windows_[e.small("win")];
  w = ReplayWindow{};
  check(create(w));
}

RankReplay::Target RankReplay::target(const TraceEvent& e, ReplayWindow& w)
{
  Target t{e.small("target"), static_cast<MPI_Aint>(e.integer("disp"))};
  if (!e.has("region") || t.rank == MPI_PROC_NULL)
    return t;
  const mpi::rma::Window& model = model_window(rank_.id(), w.handle);
  auto found = attached_regions.find({model.shared->id, t.rank, e.small("region")});
  if (found == attached_regions.end())
    fail("region " + std::to_string(e.small("region")) + " of rank " + std::to_string(t.rank) +
         " is not attached to the window");
  t.disp = reinterpret_cast<MPI_Aint>(found->second) + t.disp;
  return t;
}

void RankReplay::windows_returning_errors(SavedErrhandlers& saved)
{
  for (auto& [id, w] : windows_)
    if (w.handle != MPI_WIN_NULL) {
      mpi::rma::Window& model = model_window(rank_.id(), w.handle);
      saved.emplace_back(&model.errhandler, model.errhandler);
      model.errhandler = MPI_ERRORS_RETURN;
    }
}

MPI_Group RankReplay::window_group(const TraceEvent& e, MPI_Win handle)
{
  const mpi::rma::Window& model = model_window(rank_.id(), handle);
  std::vector<int> world;
  for (int local : e.fields().at("ranks").get<std::vector<int>>()) {
    if (local < 0 || local >= model.shared->size())
      fail("rank " + std::to_string(local) + " is not in the window's group of " +
           std::to_string(model.shared->size()));
    world.push_back(model.shared->world_rank(local));
  }
  return mpi::MpiModel::instance().process(rank_.id()).groups.insert(std::make_shared<const mpi::Group>(world));
}

// --- windows -----------------------------------------------------------------

void RankReplay::replay_win_create(const TraceEvent& e)
{
  long long bytes = e.integer("bytes");
  MPI_Comm c = comm(e);
  create_window(e, [&](ReplayWindow& w) {
    w.memory = scratch_block(bytes);
    return PMPI_Win_create(w.memory.get(), bytes, 1, MPI_INFO_NULL, c, &w.handle);
  });
}

void RankReplay::replay_win_allocate(const TraceEvent& e)
{
  MPI_Comm c = comm(e);
  void* base = nullptr;
  create_window(e, [&](ReplayWindow& w) {
    return PMPI_Win_allocate(e.integer("bytes"), 1, MPI_INFO_NULL, c, &base, &w.handle);
  });
}

void RankReplay::replay_win_allocate_shared(const TraceEvent& e)
{
  MPI_Comm c = comm(e);
  void* base = nullptr;
  create_window(e, [&](ReplayWindow& w) {
    return PMPI_Win_allocate_shared(e.integer("bytes"), 1, MPI_INFO_NULL, c, &base, &w.handle);
  });
}

void RankReplay::replay_win_create_dynamic(const TraceEvent& e)
{
  MPI_Comm c = comm(e);
  create_window(e, [&](ReplayWindow& w) { return PMPI_Win_create_dynamic(MPI_INFO_NULL, c, &w.handle); });
}

// Regions the program attached next to each other ("after", "before") are
// adjacent in the replay's memory too (AttachedLayout): an access may span
// them. Making room may move regions attached earlier, in the middle of an
// epoch: the origins' addresses follow, and so does everything the model
// keyed on the region's addresses (rma/AttachedRegions.hpp: its base, its
// memory watch, the accesses its conflict checks keep, and operations under
// way, applied where it went; the layout keeps the memory moved out of).
void RankReplay::replay_win_attach(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  long long bytes = e.integer("bytes");
  int region = e.small("region");
  int after = e.has("after") ? e.small("after") : -1;
  int before = e.has("before") ? e.small("before") : -1;
  if (!w.attached)
    w.attached = std::make_unique<AttachedLayout>();
  mpi::rma::Window& model = model_window(rank_.id(), w.handle);
  auto moved = [&](int id, char* old_address, char* now) {
    mpi::rma::move_attached(model, rank_.id(), old_address, now);
    attached_regions[{model.shared->id, model.me, id}] = now;
  };
  // A bound that keeps the layout's offsets far from overflowing (its
  // memory is allocated: beyond the machine anyway).
  if (bytes > (1LL << 40))
    fail("an attach of " + std::to_string(bytes) + " bytes is beyond what replay supports (1 TiB)");
  char* memory = nullptr;
  try {
    memory = w.attached->attach(region, bytes, after, before, moved);
  } catch (const std::invalid_argument& problem) {
    fail(problem.what());
  } catch (const std::bad_alloc&) {
    fail("no memory for the " + std::to_string(bytes) + " bytes attached");
  }
  check(PMPI_Win_attach(w.handle, memory, bytes));
  attached_regions[{model.shared->id, model.me, region}] = memory;
}

void RankReplay::replay_win_detach(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  int region = e.small("region");
  char* memory = w.attached ? w.attached->address(region) : nullptr;
  if (!memory)
    fail("region " + std::to_string(region) + " is not attached");
  check(PMPI_Win_detach(w.handle, memory));
  const mpi::rma::Window& model = model_window(rank_.id(), w.handle);
  attached_regions.erase({model.shared->id, model.me, region});
  w.attached->detach(region);
}

void RankReplay::replay_win_free(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  const mpi::rma::Window& model = model_window(rank_.id(), w.handle);
  std::vector<std::tuple<int, int, int>> regions;
  if (w.attached)
    for (int region : w.attached->regions())
      regions.emplace_back(model.shared->id, model.me, region);
  int err = PMPI_Win_free(&w.handle);
  check(err);
  if (err != MPI_SUCCESS)
    return;  // a failed call replayed as the program's (an epoch still open): the window stays
  for (const auto& key : regions)
    attached_regions.erase(key);
  windows_.erase(e.small("win"));
}

// --- operations --------------------------------------------------------------

RankReplay::TargetLayout RankReplay::target_layout(const TraceEvent& e, MPI_Datatype element, int elements)
{
  TargetLayout layout{element, elements};
  if (!e.has("pieces") || !e.has("extent") || !e.has("items"))
    return layout;
  std::vector<long long> pieces = e.fields().at("pieces").get<std::vector<long long>>();
  long long extent = e.integer("extent"), items = e.integer("items");
  long long element_bytes = type_size(element);
  if (pieces.empty() || pieces.size() % 2 != 0 || items <= 0 || items > std::numeric_limits<int>::max() ||
      element_bytes <= 0)
    fail("\"pieces\" must be pairs of an offset and a length, and \"items\" a positive int");
  std::vector<std::int64_t> lengths, offsets;
  long long per_item = 0;
  for (std::size_t i = 0; i < pieces.size(); i += 2) {
    long long offset = pieces[i], length = pieces[i + 1];
    if (offset < 0 || length <= 0)
      fail("a piece's offset must not be negative and its length must be positive");
    if (length % element_bytes != 0)
      return layout;  // not whole elements of the accumulate's type: contiguous, as before
    offsets.push_back(offset);
    lengths.push_back(length / element_bytes);
    if (__builtin_add_overflow(per_item, length / element_bytes, &per_item))
      return layout;
  }
  long long total = 0, last = 0;
  if (__builtin_mul_overflow(per_item, items, &total) || total != elements ||
      __builtin_mul_overflow(items - 1, extent, &last))
    return layout;  // not the data the call moves: contiguous, as before
  // One item: its pieces from its true lower bound (0 here), resized to
  // the program's extent; the first byte of `items` items is then
  // min(0, (items - 1) * extent) from the first item's.
  mpi::DatatypeTable& table = mpi::MpiModel::instance().datatypes();
  try {
    dt::DatatypePtr item = dt::make_resized(dt::make_hindexed(lengths, offsets, table.find(element)), 0, extent);
    layout.type = table.insert(item, rank_.id());
    layout.made = true;
  } catch (const std::exception& problem) {
    fail(std::string("\"pieces\" make no datatype: ") + problem.what());
  }
  table.commit(layout.type);
  layout.count = static_cast<int>(items);
  layout.shift = static_cast<MPI_Aint>(std::min(0LL, last));
  return layout;
}

void RankReplay::release_target_layout(const TargetLayout& layout)
{
  if (layout.made)
    mpi::MpiModel::instance().datatypes().erase(layout.type);
}

// A put or get of the recorded bytes: contiguous at the origin, and at the
// target laid out as the program's (target_layout) or contiguous.
void RankReplay::operation(const TraceEvent& e, MPI_Request* request)
{
  ReplayWindow& w = window(e);
  Target t = target(e, w);
  int n = count(e.integer("bytes"));
  TargetLayout to = target_layout(e, MPI_BYTE, n);
  MPI_Aint disp = t.disp - to.shift;
  bool put = e.call == "put" || e.call == "rput";
  int err;
  if (put)
    err = request ? PMPI_Rput(send_scratch.get(n), n, MPI_BYTE, t.rank, disp, to.count, to.type, w.handle, request)
                  : PMPI_Put(send_scratch.get(n), n, MPI_BYTE, t.rank, disp, to.count, to.type, w.handle);
  else
    err = request ? PMPI_Rget(recv_scratch.get(n), n, MPI_BYTE, t.rank, disp, to.count, to.type, w.handle, request)
                  : PMPI_Get(recv_scratch.get(n), n, MPI_BYTE, t.rank, disp, to.count, to.type, w.handle);
  release_target_layout(to);
  check(err);
  started(e, {request});
}

// The accumulates: `count` elements of the event's type at the target, and
// as many at the origin (none for MPI_NO_OP, which ignores the origin
// buffer) and in the result buffer of the fetching forms.
void RankReplay::accumulate(const TraceEvent& e, MPI_Request* request, bool fetching)
{
  ReplayWindow& w = window(e);
  Target t = target(e, w);
  int n = count(e.integer("count"));
  MPI_Datatype type = datatype(e);
  MPI_Op o = op(e);
  // An accumulate of no data (a zero-size datatype: no predefined type to
  // record, so MPI_BYTE) moves nothing, whatever its type; but the model
  // checks the operation against the type (MPI-4.1 §12.3.4), as it did the
  // program's against its empty type, which it accepts. A type the
  // operation is defined for keeps the replay's call valid too.
  if (n == 0 && type == MPI_BYTE && o != MPI_REPLACE && o != MPI_NO_OP)
    type = o == MPI_MAXLOC || o == MPI_MINLOC ? MPI_2INT : MPI_INT;
  long long bytes = n * type_size(type);
  const void* in = send_scratch.get(bytes);
  void* out = recv_scratch.get(bytes);
  int origin = o == MPI_NO_OP ? 0 : n;
  // fetch_and_op and compare_and_swap take one element of a predefined
  // type: one byte range. The others may have had a strided target.
  bool single = e.call == "fetch_and_op" || e.call == "compare_and_swap";
  TargetLayout to = single ? TargetLayout{type, n} : target_layout(e, type, n);
  MPI_Aint disp = t.disp - to.shift;
  int err;
  if (e.call == "fetch_and_op")
    err = PMPI_Fetch_and_op(in, out, type, t.rank, disp, o, w.handle);
  else if (e.call == "compare_and_swap")
    err = PMPI_Compare_and_swap(in, in, out, type, t.rank, disp, w.handle);
  else if (fetching)
    err = request ? PMPI_Rget_accumulate(in, origin, type, out, n, type, t.rank, disp, to.count, to.type, o, w.handle,
                                         request)
                  : PMPI_Get_accumulate(in, origin, type, out, n, type, t.rank, disp, to.count, to.type, o, w.handle);
  else
    err = request ? PMPI_Raccumulate(in, origin, type, t.rank, disp, to.count, to.type, o, w.handle, request)
                  : PMPI_Accumulate(in, origin, type, t.rank, disp, to.count, to.type, o, w.handle);
  release_target_layout(to);
  check(err);
  started(e, {request});
}

void RankReplay::replay_put(const TraceEvent& e)
{
  operation(e, nullptr);
}

void RankReplay::replay_get(const TraceEvent& e)
{
  operation(e, nullptr);
}

void RankReplay::replay_rput(const TraceEvent& e)
{
  MPI_Request request = MPI_REQUEST_NULL;
  operation(e, &request);
}

void RankReplay::replay_rget(const TraceEvent& e)
{
  MPI_Request request = MPI_REQUEST_NULL;
  operation(e, &request);
}

void RankReplay::replay_accumulate(const TraceEvent& e)
{
  accumulate(e, nullptr, false);
}

void RankReplay::replay_raccumulate(const TraceEvent& e)
{
  MPI_Request request = MPI_REQUEST_NULL;
  accumulate(e, &request, false);
}

void RankReplay::replay_get_accumulate(const TraceEvent& e)
{
  accumulate(e, nullptr, true);
}

void RankReplay::replay_rget_accumulate(const TraceEvent& e)
{
  MPI_Request request = MPI_REQUEST_NULL;
  accumulate(e, &request, true);
}

void RankReplay::replay_fetch_and_op(const TraceEvent& e)
{
  accumulate(e, nullptr, true);
}

void RankReplay::replay_compare_and_swap(const TraceEvent& e)
{
  accumulate(e, nullptr, true);
}

// --- synchronization ---------------------------------------------------------

void RankReplay::replay_win_fence(const TraceEvent& e)
{
  check(PMPI_Win_fence(e.small("assert"), window(e).handle));
}

void RankReplay::replay_win_post(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  MPI_Group group = window_group(e, w.handle);
  int err = PMPI_Win_post(group, e.small("assert"), w.handle);
  mpi::MpiModel::instance().process(rank_.id()).groups.erase(group);
  w.exposure_ended = false;
  check(err);
}

void RankReplay::replay_win_start(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  MPI_Group group = window_group(e, w.handle);
  int err = PMPI_Win_start(group, e.small("assert"), w.handle);
  mpi::MpiModel::instance().process(rank_.id()).groups.erase(group);
  check(err);
}

void RankReplay::replay_win_complete(const TraceEvent& e)
{
  check(PMPI_Win_complete(window(e).handle));
}

void RankReplay::replay_win_wait(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  if (w.exposure_ended)
    w.exposure_ended = false;
  else
    check(PMPI_Win_wait(w.handle));
}

// As MPI_Iprobe: one MPI_Win_test per recorded one. Under another policy the
// replay's may end the exposure epoch earlier (the program's later tests of
// it are then not made) or later (the recorded success waits for it here).
void RankReplay::replay_win_test(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  bool recorded = e.small("flag") != 0;
  if (w.exposure_ended) {
    w.exposure_ended = !recorded;
    return;
  }
  int flag = 0;
  do
    check(PMPI_Win_test(w.handle, &flag));
  while (!flag && e.has("unreturned"));
  if (recorded && !flag)
    check(PMPI_Win_wait(w.handle));
  w.exposure_ended = flag && !recorded;
}

void RankReplay::replay_win_lock(const TraceEvent& e)
{
  std::string lock = e.fields().at("lock").get<std::string>();
  int type = lock == "exclusive" ? MPI_LOCK_EXCLUSIVE : lock == "shared" ? MPI_LOCK_SHARED : 0;
  check(PMPI_Win_lock(type, e.small("target"), e.small("assert"), window(e).handle));
}

void RankReplay::replay_win_unlock(const TraceEvent& e)
{
  check(PMPI_Win_unlock(e.small("target"), window(e).handle));
}

void RankReplay::replay_win_lock_all(const TraceEvent& e)
{
  check(PMPI_Win_lock_all(e.small("assert"), window(e).handle));
}

void RankReplay::replay_win_unlock_all(const TraceEvent& e)
{
  check(PMPI_Win_unlock_all(window(e).handle));
}

void RankReplay::replay_win_flush(const TraceEvent& e)
{
  check(PMPI_Win_flush(e.small("target"), window(e).handle));
}

void RankReplay::replay_win_flush_local(const TraceEvent& e)
{
  check(PMPI_Win_flush_local(e.small("target"), window(e).handle));
}

void RankReplay::replay_win_flush_all(const TraceEvent& e)
{
  check(PMPI_Win_flush_all(window(e).handle));
}

void RankReplay::replay_win_flush_local_all(const TraceEvent& e)
{
  check(PMPI_Win_flush_local_all(window(e).handle));
}

void RankReplay::replay_win_sync(const TraceEvent& e)
{
  check(PMPI_Win_sync(window(e).handle));
}

}  // namespace progsim::traces
