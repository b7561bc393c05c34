// The replay of one-sided communication (TraceEvents.def, format version 2):
// windows of the recorded flavors and sizes over scratch memory (the data
// does not matter: what is moved, where and in which epochs does), each
// operation on the recorded target bytes as contiguous bytes, or elements
// of its predefined type for the accumulates, and every synchronization as
// recorded. Displacements are in bytes: every replayed window has a
// displacement unit of 1.
#include "traces/replay/RankReplay.hpp"
#include "traces/replay/Scratch.hpp"

#include "traces/MpiNames.hpp"

#include "MpiModel.hpp"
#include "core/Group.hpp"
#include "rma/RmaEngine.hpp"
#include "rma/Window.hpp"

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

MPI_Group RankReplay::window_group(const TraceEvent& e, MPI_Win handle)
{
  const mpi::rma::Window& model = model_window(rank_.id(), handle);
  std::vector<int> world;
  for (int local : e.fields.at("ranks").get<std::vector<int>>()) {
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
    w.memory.reset(new char[static_cast<std::size_t>(std::max(bytes, 1LL))]());
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

void RankReplay::replay_win_attach(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  long long bytes = e.integer("bytes");
  int region = e.small("region");
  std::unique_ptr<char[]>& memory = w.attached[region];
  memory.reset(new char[static_cast<std::size_t>(std::max(bytes, 1LL))]());
  check(PMPI_Win_attach(w.handle, memory.get(), bytes));
  const mpi::rma::Window& model = model_window(rank_.id(), w.handle);
  attached_regions[{model.shared->id, model.me, region}] = memory.get();
}

void RankReplay::replay_win_detach(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  int region = e.small("region");
  auto found = w.attached.find(region);
  if (found == w.attached.end())
    fail("region " + std::to_string(region) + " is not attached");
  check(PMPI_Win_detach(w.handle, found->second.get()));
  const mpi::rma::Window& model = model_window(rank_.id(), w.handle);
  attached_regions.erase({model.shared->id, model.me, region});
  w.attached.erase(found);
}

void RankReplay::replay_win_free(const TraceEvent& e)
{
  ReplayWindow& w = window(e);
  const mpi::rma::Window& model = model_window(rank_.id(), w.handle);
  for (auto& [region, memory] : w.attached)
    attached_regions.erase({model.shared->id, model.me, region});
  check(PMPI_Win_free(&w.handle));
  windows_.erase(e.small("win"));
}

// --- operations --------------------------------------------------------------

void RankReplay::operation(const TraceEvent& e, MPI_Request* request)
{
  ReplayWindow& w = window(e);
  Target t = target(e, w);
  int n = count(e.integer("bytes"));
  bool put = e.call == "put" || e.call == "rput";
  if (put)
    check(request ? PMPI_Rput(send_scratch.get(n), n, MPI_BYTE, t.rank, t.disp, n, MPI_BYTE, w.handle, request)
                  : PMPI_Put(send_scratch.get(n), n, MPI_BYTE, t.rank, t.disp, n, MPI_BYTE, w.handle));
  else
    check(request ? PMPI_Rget(recv_scratch.get(n), n, MPI_BYTE, t.rank, t.disp, n, MPI_BYTE, w.handle, request)
                  : PMPI_Get(recv_scratch.get(n), n, MPI_BYTE, t.rank, t.disp, n, MPI_BYTE, w.handle));
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
  if (e.call == "fetch_and_op")
    check(PMPI_Fetch_and_op(in, out, type, t.rank, t.disp, o, w.handle));
  else if (e.call == "compare_and_swap")
    check(PMPI_Compare_and_swap(in, in, out, type, t.rank, t.disp, w.handle));
  else if (fetching)
    check(request ? PMPI_Rget_accumulate(in, origin, type, out, n, type, t.rank, t.disp, n, type, o, w.handle, request)
                  : PMPI_Get_accumulate(in, origin, type, out, n, type, t.rank, t.disp, n, type, o, w.handle));
  else
    check(request ? PMPI_Raccumulate(in, origin, type, t.rank, t.disp, n, type, o, w.handle, request)
                  : PMPI_Accumulate(in, origin, type, t.rank, t.disp, n, type, o, w.handle));
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
  std::string lock = e.fields.at("lock").get<std::string>();
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
