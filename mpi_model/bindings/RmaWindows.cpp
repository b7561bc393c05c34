// MPI-4.1 §12.2: window creation (create, allocate, allocate_shared,
// create_dynamic with attach/detach), MPI_Win_shared_query, MPI_Win_free,
// and the window's group, info, name, attributes (§12.2.6, §7.7) and error
// handlers (§9.3.2).
//
// The bindings check the arguments; creation (collective: context
// agreement, registration, barrier, watching the memory) and the collective
// part of MPI_Win_free are in rma/ (rma/WindowLifetime.hpp).

#include "bindings/Communicators.hpp"
#include "bindings/Rma.hpp"
#include "rma/AttachedRegions.hpp"
#include "rma/SyncErrors.hpp"
#include "rma/WindowLifetime.hpp"
#include "sim/memory/MemoryWatch.hpp"

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

int sync_error(const Binding& b, const Window& window, const std::string& detail)
{
  return window_error(b, window, rma::report_sync_error(b, window, detail), detail);
}

int check_target(const Binding& b, const Window& window, int rank, bool proc_null_ok)
{
  if ((rank == MPI_PROC_NULL && proc_null_ok) || (rank >= 0 && rank < window.shared->size()))
    return MPI_SUCCESS;
  return window_error(b, window, MPI_ERR_RANK,
                      "invalid target rank " + std::to_string(rank) + " (window group size " +
                          std::to_string(window.shared->size()) + ")");
}

}  // namespace progsim::mpi

namespace {

sim::memory::MemoryWatch& memory()
{
  return sim::memory::MemoryWatch::instance();
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
  Info user;
  if (int err = info_contents(b, info, user))
    return err;
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
  rma::CreatedWindow created = rma::create_window(b, *parent, {flavor, base, size, disp_unit}, user);
  if (created.error)
    return b.error(comm, created.error, created.failure);
  if (baseptr)
    *static_cast<void**>(baseptr) = created.base;
  *win = created.handle;
  return MPI_SUCCESS;
}

bool is_predefined_win_keyval(int keyval)
{
  return keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL;
}

int bad_keyval(const Binding& b, const Window& w, int keyval)
{
  return window_error(b, w, MPI_ERR_KEYVAL, b.keyvals().why_unusable(keyval, KeyvalKind::Win));
}

int run_delete(const Binding& b, const Window& w, int keyval, void* value)
{
  Keyval* k = b.keyvals().find(keyval);
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
  if (b.model().parameters().window_watch != "none")
    region.watch = rma::watch_attached(*w->shared, b.world(), region.base, size);
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
    return sync_error(b, *w,
                        "an access or exposure epoch is still open (MPI-4.1 §12.2.5: close it before MPI_Win_free)");
  if (int err = rma::quiesce_for_free(b, *w))
    return window_error(b, *w, err, "the window's free barrier failed");
  auto set = w->attributes.in_set_order();
  for (auto it = set.rbegin(); it != set.rend(); ++it) {
    if (int err = run_delete(b, *w, it->first, it->second))
      return window_error(b, *w, err, "an attribute delete callback failed with code " + std::to_string(err));
    w->attributes.erase(it->first);
    b.keyvals().drop_use(it->first);
  }
  rma::release_window(b, *w);
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
  *keyval = b.keyvals().create(k);
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
  if (!b.keyvals().free_keyval(*keyval, KeyvalKind::Win))
    return b.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, b.keyvals().why_unusable(*keyval, KeyvalKind::Win));
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
  if (!b.keyvals().find_usable(keyval, KeyvalKind::Win))
    return bad_keyval(b, *w, keyval);
  if (std::optional<void*> old = w->attributes.get(keyval)) {
    if (int err = run_delete(b, *w, keyval, *old))
      return window_error(b, *w, err, "the attribute delete callback failed with code " + std::to_string(err));
  } else {
    b.keyvals().add_use(keyval);
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
  if (!b.keyvals().find_usable(keyval, KeyvalKind::Win))
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
  // A freed keyval still names its attributes (MPI-4.1 §7.7.2).
  if (!b.keyvals().find_referenced(keyval, KeyvalKind::Win))
    return bad_keyval(b, *w, keyval);
  std::optional<void*> v = w->attributes.get(keyval);
  if (!v)
    return MPI_SUCCESS;
  if (int err = run_delete(b, *w, keyval, *v))
    return window_error(b, *w, err, "the attribute delete callback failed with code " + std::to_string(err));
  w->attributes.erase(keyval);
  b.keyvals().drop_use(keyval);
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
  *errhandler = p.add_errhandler(reinterpret_cast<MPI_Comm_errhandler_function*>(fn));
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
