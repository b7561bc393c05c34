// MPI-4.1 §12.2: window creation (create, allocate, allocate_shared,
// create_dynamic with attach/detach), MPI_Win_shared_query, MPI_Win_free,
// and the window's group, info, name, attributes (§12.2.6, §7.7) and error
// handlers (§9.3.2).
//
// Creation is collective: the members agree on a fresh context id for the
// window's internal communicator (fence and free synchronize over it),
// register their memory in the window's job-wide object, and meet in a
// barrier so that every member's memory is known before anyone accesses it.
// Window memory is watched (sim/memory): a rank busy-waiting on it with plain
// loads lets simulated time pass and wakes at the next write.

#include "bindings/Communicators.hpp"
#include "bindings/Rma.hpp"
#include "coll/Collectives.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>

using namespace progsim;
using namespace progsim::mpi;
using rma::Flavor;
using rma::Window;

namespace progsim::mpi {

int resolve_window(const Binding& b, MPI_Win handle, Window*& window)
{
  if (int err = b.check_initialized())
    return err;
  window = rma_engine(b).windows(b.world()).find(handle);
  if (!window)
    return b.error(MPI_COMM_WORLD, MPI_ERR_WIN, handle == MPI_WIN_NULL ? "MPI_WIN_NULL" : "unknown window handle");
  return MPI_SUCCESS;
}

int window_error(const Binding& b, const Window& window, int error_class, const std::string& detail)
{
  return raise_object_error(window.handle, window.errhandler, error_class, b.call(),
                            detail + " (" + window.shared->name() + ")");
}

int check_target(const Binding& b, const Window& window, int rank, bool proc_null_ok)
{
  if ((rank == MPI_PROC_NULL && proc_null_ok) || (rank >= 0 && rank < window.shared->size()))
    return MPI_SUCCESS;
  return window_error(b, window, MPI_ERR_RANK,
                      "invalid target rank " + std::to_string(rank) + " (window group size " +
                          std::to_string(window.shared->size()) + ")");
}

std::string describe_call(const Binding& b, const Window& window)
{
  return std::string(b.call()) + "(" + (window.name.empty() ? window.shared->name() : window.name) + ")";
}

}  // namespace progsim::mpi

namespace {

sim::memory::MemoryWatch& memory()
{
  return sim::memory::MemoryWatch::instance();
}

// MPI_Win_allocate_shared: one block for the group, each member's part
// following the previous one (MPI-4.1 §12.2.3, contiguous by default).
void place_shared_segment(rma::WindowShared& w)
{
  if (w.segment_ready)
    return;
  w.segment_ready = true;
  std::int64_t total = 0;
  for (const rma::WindowPart& p : w.parts)
    total += p.size;
  char* base = nullptr;
  if (total > 0) {
    w.segment = memory().allocate_shared(static_cast<std::size_t>(total), w.name());
    base = static_cast<char*>(w.segment.user);
  }
  std::int64_t offset = 0;
  for (rma::WindowPart& p : w.parts) {
    p.base = base ? base + offset : nullptr;
    offset += p.size;
  }
}

// Whether to watch a window part (--cfg window-watch). Watched pages trap on
// every access, also by the simulator and by the MPI calls' own stack frames
// sharing the page. MPI_Win_create memory on the heap shares its pages with
// the simulator's data, and a data array on the stack with the frames of the
// loops of MPI calls that use it; a large buffer is data that the program
// initializes and checks element by element (one trap each). `auto` watches
// memory MPI allocated up to a page (flags), and MPI_Win_create memory
// when it is a flag (at most kFlagBytes) on the stack or in the program's
// globals; the rest lazily: only once a rank seems to spin
// (MemoryWatch::watch_lazily, --cfg memory-watch-arm).
enum class PartWatch { None, Now, Lazily };

PartWatch watch_part(const Binding& b, Flavor flavor, const void* base, std::int64_t size)
{
  constexpr std::int64_t kFlagBytes = 64;
  constexpr std::int64_t kFlagPage = 4096;
  const std::string& mode = b.model().parameters().window_watch;
  if (mode != "auto")
    return mode == "none" ? PartWatch::None : PartWatch::Now;
  if (flavor != Flavor::Create)
    return size <= kFlagPage ? PartWatch::Now : PartWatch::Lazily;
  if (size > kFlagBytes)
    return PartWatch::Lazily;
  auto address = reinterpret_cast<std::uintptr_t>(base);
  auto frame = reinterpret_cast<std::uintptr_t>(__builtin_frame_address(0));
  constexpr std::uintptr_t kStackReach = 1 << 20;  // the caller's frames lie just above ours
  if (address > frame && address - frame < kStackReach)
    return PartWatch::Now;
  Dl_info info{};
  bool global = dladdr(base, &info) != 0 && info.dli_fname;  // inside a loaded object
  return global ? PartWatch::Now : PartWatch::Lazily;
}

int create(const Binding& b, Flavor flavor, void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm,
           void* baseptr, MPI_Win* win)
{
  if (int err = b.check_initialized())
    return err;
  const Communicator* parent = nullptr;
  if (int err = b.resolve_comm(comm, parent))
    return err;
  if (parent->is_inter())
    return b.error(comm, MPI_ERR_COMM, "windows cannot be created on an intercommunicator");
  if (!win)
    return b.error(comm, MPI_ERR_ARG, "null window pointer");
  if (size < 0)
    return b.error(comm, MPI_ERR_SIZE, "negative window size " + std::to_string(size));
  if (disp_unit <= 0)
    return b.error(comm, MPI_ERR_DISP, "displacement unit " + std::to_string(disp_unit) + " (must be positive)");
  if (flavor == Flavor::Create && size > 0 && !base)
    return b.error(comm, MPI_ERR_BASE, "null base for a window of " + std::to_string(size) + " bytes");
  if ((flavor == Flavor::Allocate || flavor == Flavor::Shared) && !baseptr)
    return b.error(comm, MPI_ERR_ARG, "null baseptr");
  // The defaults of the window info keys (MPI-4.1 §12.2.1), then the user's.
  Info hints;
  hints.set("no_locks", "false");
  hints.set("accumulate_ordering", "rar,raw,war,waw");
  hints.set("accumulate_ops", "same_op_no_op");
  Info user;
  if (int err = info_contents(b, info, user))
    return err;
  hints.merge(user);
  if (flavor == Flavor::Shared) {
    auto* host = b.model().simulation().rank(b.world()).host();
    for (int w : parent->group->world_ranks())
      if (b.model().simulation().rank(w).host() != host)
        return b.error(comm, MPI_ERR_RMA_SHARED,
                       "rank " + std::to_string(w) + " of the communicator is on another host (" +
                           b.model().simulation().rank(w).host()->get_name() + ", not " + host->get_name() +
                           "): memory can only be shared on one host (MPI_Comm_split_type with "
                           "MPI_COMM_TYPE_SHARED makes such a communicator)");
  }
  int context = 0;
  if (int err = coll::agree_context({b, *parent, coll::kContextTag}, context))
    return b.error(comm, err, "no context id for the window's communicator");
  auto internal = std::make_unique<Communicator>();
  internal->context_id = context;
  internal->group = parent->group;
  internal->owner = b.world();
  internal->my_rank = parent->my_rank;
  Communicator& ic = b.model().communicators().add(b.world(), std::move(internal));

  auto w = std::make_unique<Window>();
  w->shared = rma_engine(b).join(context, parent->group, flavor);
  w->me = parent->my_rank;
  w->comm = ic.handle;
  w->hints = std::move(hints);
  w->locks.assign(static_cast<size_t>(parent->size()), 0);
  w->lock_nocheck.assign(static_cast<size_t>(parent->size()), false);
  ic.name = "internal communicator of " + w->shared->name();
  rma::WindowPart& part = w->shared->parts[static_cast<size_t>(w->me)];
  part.size = flavor == Flavor::Dynamic ? 0 : size;
  part.disp_unit = disp_unit;
  if (flavor == Flavor::Create)
    part.base = static_cast<char*>(base);
  if (flavor == Flavor::Allocate && size > 0) {
    part.memory = memory().allocate_shared(static_cast<std::size_t>(size), w->shared->name());
    part.base = static_cast<char*>(part.memory.user);
  }
  // Every member's memory is registered before anyone goes on.
  if (int err = coll::barrier({b, ic, coll::kBarrierTag}))
    return b.error(comm, err, "the window's creation barrier failed");
  if (flavor == Flavor::Shared)
    place_shared_segment(*w->shared);
  std::string part_name = w->shared->name() + " (rank " + std::to_string(b.world()) + "'s part)";
  switch (part.size > 0 ? watch_part(b, flavor, part.base, part.size) : PartWatch::None) {
    case PartWatch::None: break;
    case PartWatch::Now: part.watch = memory().watch(part.base, static_cast<std::size_t>(part.size), part_name); break;
    case PartWatch::Lazily:
      part.watch = memory().watch_lazily(part.base, static_cast<std::size_t>(part.size), part_name);
      break;
  }
  if (baseptr)
    *static_cast<void**>(baseptr) = part.base;
  w->size_attribute = part.size;
  w->disp_unit_attribute = disp_unit;
  w->flavor_attribute = rma::flavor_constant(flavor);
  *win = rma_engine(b).windows(b.world()).add(std::move(w)).handle;
  return MPI_SUCCESS;
}

KeyvalTable& keyvals(const Binding& b)
{
  return b.model().process(b.world()).keyvals;
}

bool is_predefined_win_keyval(int keyval)
{
  return keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
}

int bad_keyval(const Binding& b, const Window& w, int keyval)
{
  if (Keyval* k = keyvals(b).find(keyval))
    return window_error(b, w, MPI_ERR_KEYVAL,
                        "keyval " + std::to_string(keyval) +
                            (k->kind != KeyvalKind::Win ? " is not a window keyval" : " was freed"));
  return window_error(b, w, MPI_ERR_KEYVAL, "unknown keyval " + std::to_string(keyval));
}

int run_delete(const Binding& b, const Window& w, int keyval, void* value)
{
  Keyval* k = keyvals(b).find(keyval);
  if (!k || !k->del)
    return MPI_SUCCESS;
  auto* fn = k->del;
  void* extra = k->extra_state;
  return call_user_code(b.rank(), [&] { return fn(w.handle, keyval, value, extra); });
}

}  // namespace

extern "C" {

int PMPI_Win_create(void* base, MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, MPI_Win* win)
{
  Binding b("MPI_Win_create");
  return create(b, Flavor::Create, base, size, disp_unit, info, comm, nullptr, win);
}

int PMPI_Win_allocate(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr, MPI_Win* win)
{
  Binding b("MPI_Win_allocate");
  return create(b, Flavor::Allocate, nullptr, size, disp_unit, info, comm, baseptr, win);
}

int PMPI_Win_allocate_shared(MPI_Aint size, int disp_unit, MPI_Info info, MPI_Comm comm, void* baseptr,
                             MPI_Win* win)
{
  Binding b("MPI_Win_allocate_shared");
  return create(b, Flavor::Shared, nullptr, size, disp_unit, info, comm, baseptr, win);
}

int PMPI_Win_create_dynamic(MPI_Info info, MPI_Comm comm, MPI_Win* win)
{
  Binding b("MPI_Win_create_dynamic");
  return create(b, Flavor::Dynamic, nullptr, 0, 1, info, comm, nullptr, win);
}

int PMPI_Win_shared_query(MPI_Win win, int rank, MPI_Aint* size, int* disp_unit, void* baseptr)
{
  Binding b("MPI_Win_shared_query");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->shared->flavor != Flavor::Shared)
    return window_error(b, *w, MPI_ERR_RMA_FLAVOR,
                        std::string("the window was made by ") + rma::to_string(w->shared->flavor) +
                            ", not MPI_Win_allocate_shared");
  if (int err = check_target(b, *w, rank))
    return err;
  if (!size || !disp_unit || !baseptr)
    return window_error(b, *w, MPI_ERR_ARG, "null size, disp_unit or baseptr");
  const auto& parts = w->shared->parts;
  const rma::WindowPart* part = nullptr;
  if (rank == MPI_PROC_NULL) {
    // The lowest rank with a non-empty part (MPI-4.1 §12.2.3).
    for (const rma::WindowPart& p : parts)
      if (!part && p.size > 0)
        part = &p;
  } else {
    part = &parts[static_cast<size_t>(rank)];
  }
  *size = part ? part->size : 0;
  *disp_unit = part ? part->disp_unit : 1;
  *static_cast<void**>(baseptr) = part ? part->base : nullptr;
  return MPI_SUCCESS;
}

int PMPI_Win_attach(MPI_Win win, void* base, MPI_Aint size)
{
  Binding b("MPI_Win_attach");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->shared->flavor != Flavor::Dynamic)
    return window_error(b, *w, MPI_ERR_RMA_FLAVOR, "MPI_Win_attach needs a window of MPI_Win_create_dynamic");
  if (size < 0)
    return window_error(b, *w, MPI_ERR_SIZE, "negative size " + std::to_string(size));
  if (size > 0 && !base)
    return window_error(b, *w, MPI_ERR_BASE, "null base");
  rma::AttachedRegion region{static_cast<char*>(base), size, -1};
  // Attached memory may be polled like any window memory; it is program
  // memory of any size, so it is watched lazily (see watch_part).
  if (size > 0 && b.model().parameters().window_watch != "none")
    region.watch = memory().watch_lazily(base, static_cast<std::size_t>(size),
                                         w->shared->name() + " (memory attached by rank " + std::to_string(b.world()) +
                                             ")");
  w->shared->parts[static_cast<size_t>(w->me)].attached.push_back(region);
  return MPI_SUCCESS;
}

int PMPI_Win_detach(MPI_Win win, const void* base)
{
  Binding b("MPI_Win_detach");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (w->shared->flavor != Flavor::Dynamic)
    return window_error(b, *w, MPI_ERR_RMA_FLAVOR, "MPI_Win_detach needs a window of MPI_Win_create_dynamic");
  auto& attached = w->shared->parts[static_cast<size_t>(w->me)].attached;
  auto it = std::find_if(attached.begin(), attached.end(), [base](auto& r) { return r.base == base; });
  if (it == attached.end())
    return window_error(b, *w, MPI_ERR_RMA_ATTACH, "no memory is attached at that base");
  memory().unwatch(it->watch);
  attached.erase(it);
  return MPI_SUCCESS;
}

int PMPI_Win_free(MPI_Win* win)
{
  Binding b("MPI_Win_free");
  if (!win)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null window pointer");
  Window* w = nullptr;
  if (int err = resolve_window(b, *win, w))
    return err;
  bool locked = w->lock_all || std::any_of(w->locks.begin(), w->locks.end(), [](int l) { return l != 0; });
  if (w->access_group || w->exposure_group || locked)
    return window_error(b, *w, MPI_ERR_RMA_SYNC,
                        "an access or exposure epoch is still open (MPI-4.1 §12.2.5: close it before MPI_Win_free)");
  rma::RmaEngine& engine = rma_engine(b);
  engine.release_deferred(w->shared, w->me, true);
  std::vector<int> targets;
  for (int t = 0; t < w->shared->size(); ++t)
    targets.push_back(t);
  engine.block(b.world(), {rma::BlockedRma::Acks, w->shared, w->me, targets, false},
               [&engine, w] { return engine.all_acked(*w); }, describe_call(b, *w) + ", completing its operations");
  const Communicator* ic = b.model().communicators().find(w->comm, b.world());
  if (int err = coll::barrier({b, *ic, coll::kBarrierTag}))
    return window_error(b, *w, err, "the window's free barrier failed");
  auto set = w->attributes.in_set_order();
  for (auto it = set.rbegin(); it != set.rend(); ++it) {
    if (int err = run_delete(b, *w, it->first, it->second))
      return window_error(b, *w, err, "an attribute delete callback failed with code " + std::to_string(err));
    w->attributes.erase(it->first);
    keyvals(b).drop_use(it->first);
  }
  rma::WindowShared& shared = *w->shared;
  rma::WindowPart& part = shared.parts[static_cast<size_t>(w->me)];
  if (part.watch >= 0)
    memory().unwatch(part.watch);
  part.watch = -1;
  for (const rma::AttachedRegion& r : part.attached)  // still attached: freeing ends the exposure
    memory().unwatch(r.watch);
  part.attached.clear();
  if (part.memory.user)
    memory().free_shared(part.memory);
  if (++shared.released == shared.size() && shared.segment.user)
    memory().free_shared(shared.segment);
  b.model().communicators().remove(b.world(), w->comm);
  engine.windows(b.world()).remove(*win);
  *win = MPI_WIN_NULL;
  return MPI_SUCCESS;
}

int PMPI_Win_get_group(MPI_Win win, MPI_Group* group)
{
  Binding b("MPI_Win_get_group");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!group)
    return window_error(b, *w, MPI_ERR_ARG, "null group pointer");
  *group = b.model().process(b.world()).groups.insert(w->shared->group);
  return MPI_SUCCESS;
}

int PMPI_Win_set_info(MPI_Win win, MPI_Info info)
{
  Binding b("MPI_Win_set_info");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  Info hints;
  if (int err = info_contents(b, info, hints))
    return err;
  w->hints.merge(hints);
  return MPI_SUCCESS;
}

int PMPI_Win_get_info(MPI_Win win, MPI_Info* info_used)
{
  Binding b("MPI_Win_get_info");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!info_used)
    return window_error(b, *w, MPI_ERR_ARG, "null info pointer");
  *info_used = new_info(b, w->hints);
  return MPI_SUCCESS;
}

int PMPI_Win_set_name(MPI_Win win, const char* win_name)
{
  Binding b("MPI_Win_set_name");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!win_name)
    return window_error(b, *w, MPI_ERR_ARG, "null name");
  w->name = win_name;
  w->name.resize(std::min<std::size_t>(w->name.size(), MPI_MAX_OBJECT_NAME - 1));
  return MPI_SUCCESS;
}

int PMPI_Win_get_name(MPI_Win win, char* win_name, int* resultlen)
{
  Binding b("MPI_Win_get_name");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!win_name || !resultlen)
    return window_error(b, *w, MPI_ERR_ARG, "null name or resultlen");
  std::memcpy(win_name, w->name.c_str(), w->name.size() + 1);
  *resultlen = static_cast<int>(w->name.size());
  return MPI_SUCCESS;
}

int PMPI_Win_create_keyval(MPI_Win_copy_attr_function* copy_fn, MPI_Win_delete_attr_function* delete_fn,
                           int* keyval, void* extra_state)
{
  Binding b("MPI_Win_create_keyval");
  if (int err = b.check_initialized())
    return err;
  if (!keyval)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval pointer");
  Keyval k;
  k.kind = KeyvalKind::Win;
  // Window callbacks have the communicator callbacks' C type up to the handle
  // type, which is int for both (Attributes.hpp).
  k.copy = reinterpret_cast<MPI_Comm_copy_attr_function*>(copy_fn);
  k.del = reinterpret_cast<MPI_Comm_delete_attr_function*>(delete_fn);
  k.extra_state = extra_state;
  *keyval = keyvals(b).create(k);
  return MPI_SUCCESS;
}

int PMPI_Win_free_keyval(int* keyval)
{
  Binding b("MPI_Win_free_keyval");
  if (int err = b.check_initialized())
    return err;
  if (!keyval)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval pointer");
  if (is_predefined_win_keyval(*keyval))
    return b.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "a predefined keyval cannot be freed");
  if (!keyvals(b).free_keyval(*keyval, KeyvalKind::Win))
    return b.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "keyval " + std::to_string(*keyval) + " is not a window keyval");
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int PMPI_Win_set_attr(MPI_Win win, int keyval, void* attribute_val)
{
  Binding b("MPI_Win_set_attr");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (is_predefined_win_keyval(keyval))
    return window_error(b, *w, MPI_ERR_KEYVAL, "predefined window attributes are read-only");
  if (!keyvals(b).find_usable(keyval, KeyvalKind::Win))
    return bad_keyval(b, *w, keyval);
  if (std::optional<void*> old = w->attributes.get(keyval)) {
    if (int err = run_delete(b, *w, keyval, *old))
      return window_error(b, *w, err, "the attribute delete callback failed with code " + std::to_string(err));
  } else {
    keyvals(b).add_use(keyval);
  }
  w->attributes.set(keyval, attribute_val);
  return MPI_SUCCESS;
}

int PMPI_Win_get_attr(MPI_Win win, int keyval, void* attribute_val, int* flag)
{
  Binding b("MPI_Win_get_attr");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!attribute_val || !flag)
    return window_error(b, *w, MPI_ERR_ARG, "null attribute_val or flag");
  auto* out = static_cast<void**>(attribute_val);
  *flag = 1;
  switch (keyval) {
    case MPI_WIN_BASE: *out = w->shared->parts[static_cast<size_t>(w->me)].base; return MPI_SUCCESS;
    case MPI_WIN_SIZE: *out = &w->size_attribute; return MPI_SUCCESS;
    case MPI_WIN_DISP_UNIT: *out = &w->disp_unit_attribute; return MPI_SUCCESS;
    case MPI_WIN_CREATE_FLAVOR: *out = &w->flavor_attribute; return MPI_SUCCESS;
    case MPI_WIN_MODEL: *out = &w->model_attribute; return MPI_SUCCESS;
    default: break;
  }
  *flag = 0;
  if (!keyvals(b).find_usable(keyval, KeyvalKind::Win))
    return bad_keyval(b, *w, keyval);
  std::optional<void*> v = w->attributes.get(keyval);
  *flag = v.has_value();
  if (v)
    *out = *v;
  return MPI_SUCCESS;
}

int PMPI_Win_delete_attr(MPI_Win win, int keyval)
{
  Binding b("MPI_Win_delete_attr");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (is_predefined_win_keyval(keyval))
    return window_error(b, *w, MPI_ERR_KEYVAL, "predefined window attributes cannot be deleted");
  if (!keyvals(b).find_usable(keyval, KeyvalKind::Win))
    return bad_keyval(b, *w, keyval);
  std::optional<void*> v = w->attributes.get(keyval);
  if (!v)
    return MPI_SUCCESS;
  if (int err = run_delete(b, *w, keyval, *v))
    return window_error(b, *w, err, "the attribute delete callback failed with code " + std::to_string(err));
  w->attributes.erase(keyval);
  keyvals(b).drop_use(keyval);
  return MPI_SUCCESS;
}

int PMPI_Win_create_errhandler(MPI_Win_errhandler_function* fn, MPI_Errhandler* errhandler)
{
  Binding b("MPI_Win_create_errhandler");
  if (int err = b.check_initialized())
    return err;
  if (!fn || !errhandler)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null function or result pointer");
  Process& p = b.model().process(b.world());
  // Same C type as a communicator handler up to the (int) handle type.
  p.errhandlers.push_back(UserErrhandler{reinterpret_cast<MPI_Comm_errhandler_function*>(fn), false});
  *errhandler = MPI_ERRHANDLER_NULL + Process::kFirstUserErrhandler + static_cast<int>(p.errhandlers.size()) - 1;
  return MPI_SUCCESS;
}

int PMPI_Win_set_errhandler(MPI_Win win, MPI_Errhandler errhandler)
{
  Binding b("MPI_Win_set_errhandler");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  bool predefined =
      errhandler == MPI_ERRORS_ARE_FATAL || errhandler == MPI_ERRORS_RETURN || errhandler == MPI_ERRORS_ABORT;
  UserErrhandler* user = b.model().process(b.world()).errhandler(errhandler);
  if (!predefined && (!user || user->freed))
    return window_error(b, *w, MPI_ERR_ARG, "unknown error handler");
  w->errhandler = errhandler;
  return MPI_SUCCESS;
}

int PMPI_Win_get_errhandler(MPI_Win win, MPI_Errhandler* errhandler)
{
  Binding b("MPI_Win_get_errhandler");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  if (!errhandler)
    return window_error(b, *w, MPI_ERR_ARG, "null errhandler pointer");
  *errhandler = w->errhandler;
  return MPI_SUCCESS;
}

int PMPI_Win_call_errhandler(MPI_Win win, int errorcode)
{
  Binding b("MPI_Win_call_errhandler");
  Window* w = nullptr;
  if (int err = resolve_window(b, win, w))
    return err;
  window_error(b, *w, errorcode, "raised by the program");
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Win_create)
PROGSIM_MPI_ALIAS(MPI_Win_allocate)
PROGSIM_MPI_ALIAS(MPI_Win_allocate_shared)
PROGSIM_MPI_ALIAS(MPI_Win_create_dynamic)
PROGSIM_MPI_ALIAS(MPI_Win_shared_query)
PROGSIM_MPI_ALIAS(MPI_Win_attach)
PROGSIM_MPI_ALIAS(MPI_Win_detach)
PROGSIM_MPI_ALIAS(MPI_Win_free)
PROGSIM_MPI_ALIAS(MPI_Win_get_group)
PROGSIM_MPI_ALIAS(MPI_Win_set_info)
PROGSIM_MPI_ALIAS(MPI_Win_get_info)
PROGSIM_MPI_ALIAS(MPI_Win_set_name)
PROGSIM_MPI_ALIAS(MPI_Win_get_name)
PROGSIM_MPI_ALIAS(MPI_Win_create_keyval)
PROGSIM_MPI_ALIAS(MPI_Win_free_keyval)
PROGSIM_MPI_ALIAS(MPI_Win_set_attr)
PROGSIM_MPI_ALIAS(MPI_Win_get_attr)
PROGSIM_MPI_ALIAS(MPI_Win_delete_attr)
PROGSIM_MPI_ALIAS(MPI_Win_create_errhandler)
PROGSIM_MPI_ALIAS(MPI_Win_set_errhandler)
PROGSIM_MPI_ALIAS(MPI_Win_get_errhandler)
PROGSIM_MPI_ALIAS(MPI_Win_call_errhandler)
