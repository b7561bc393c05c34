// MPI-4.1 §7.7: caching attributes on communicators, with the deprecated
// MPI-1 names (§16: MPI_Keyval_create, MPI_Attr_put...). Keyvals and the
// attributes are per process (core/Attributes.hpp).
//
// The predefined attributes (MPI-4.1 §9.1.2) are read-only and, as in MPICH,
// readable on every communicator: MPI_TAG_UB, MPI_HOST (MPI_PROC_NULL: no
// host process), MPI_IO (MPI_ANY_SOURCE: every process can do I/O),
// MPI_WTIME_IS_GLOBAL (1: simulated clocks are synchronized),
// MPI_UNIVERSE_SIZE (the world size), MPI_LASTUSEDCODE and MPI_APPNUM (0).

#include "bindings/Communicators.hpp"

#include <cstring>

using namespace progsim;
using namespace progsim::mpi;

namespace {

bool is_predefined_comm_keyval(int keyval)
{
  return keyval >= MPI_TAG_UB && keyval <= MPI_APPNUM;
}

int resolve(const Binding& b, MPI_Comm comm, Communicator*& c)
{
  if (int err = b.check_initialized())
    return err;
  const Communicator* cc = nullptr;
  if (int err = b.resolve_comm(comm, cc))
    return err;
  c = const_cast<Communicator*>(cc);
  return MPI_SUCCESS;
}

int bad_keyval(const Binding& b, MPI_Comm comm, int keyval)
{
  if (keyval >= MPI_WIN_BASE && keyval <= MPI_WIN_MODEL)
    return b.error(comm, MPI_ERR_KEYVAL, "keyval " + std::to_string(keyval) + " is a window attribute");
  return b.error(comm, MPI_ERR_KEYVAL, b.keyvals().why_unusable(keyval, KeyvalKind::Comm));
}

// Runs the delete callback of one attribute (the attribute stays set).
int run_delete(const Binding& b, const Communicator& c, int keyval, void* value)
{
  Keyval* k = b.keyvals().find(keyval);
  if (!k || !k->del)
    return MPI_SUCCESS;
  MPI_Comm_delete_attr_function* fn = k->del;
  void* extra = k->extra_state;
  return call_user_code(b.rank(), [&] { return fn(c.handle, keyval, value, extra); });
}

int create_keyval(const Binding& b, MPI_Comm_copy_attr_function* copy, MPI_Comm_delete_attr_function* del,
                  int* keyval, void* extra_state)
{
  if (int err = b.check_initialized())
    return err;
  if (!keyval)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval pointer");
  Keyval k;
  k.kind = KeyvalKind::Comm;
  k.copy = copy;
  k.del = del;
  k.extra_state = extra_state;
  *keyval = b.keyvals().create(k);
  return MPI_SUCCESS;
}

int free_keyval(const Binding& b, int* keyval)
{
  if (int err = b.check_initialized())
    return err;
  if (!keyval)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null keyval pointer");
  if (is_predefined_comm_keyval(*keyval))
    return b.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, "a predefined keyval cannot be freed");
  if (!b.keyvals().free_keyval(*keyval, KeyvalKind::Comm))
    return bad_keyval(b, MPI_COMM_WORLD, *keyval);
  *keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int set_attr(const Binding& b, MPI_Comm comm, int keyval, void* value)
{
  Communicator* c = nullptr;
  if (int err = resolve(b, comm, c))
    return err;
  if (is_predefined_comm_keyval(keyval))
    return b.error(comm, MPI_ERR_KEYVAL, "predefined attributes are read-only");
  if (!b.keyvals().find_usable(keyval, KeyvalKind::Comm))
    return bad_keyval(b, comm, keyval);
  if (std::optional<void*> old = c->attributes.get(keyval)) {
    // MPI-4.1 §7.7.3: replacing a value first deletes the old one.
    if (int err = run_delete(b, *c, keyval, *old))
      return b.error(comm, err, "the attribute delete callback failed with code " + std::to_string(err));
  } else {
    b.keyvals().add_use(keyval);
  }
  c->attributes.set(keyval, value);
  return MPI_SUCCESS;
}

int get_attr(const Binding& b, MPI_Comm comm, int keyval, void* value, int* flag)
{
  Communicator* c = nullptr;
  if (int err = resolve(b, comm, c))
    return err;
  if (!flag || !value)
    return b.error(comm, MPI_ERR_ARG, "null attribute_val or flag");
  if (is_predefined_comm_keyval(keyval)) {
    Process& p = b.model().process(b.world());
    int& slot = p.predefined_attributes[static_cast<size_t>(keyval)];
    switch (keyval) {
      case MPI_TAG_UB: slot = kTagUpperBound; break;
      case MPI_HOST: slot = MPI_PROC_NULL; break;
      case MPI_IO: slot = MPI_ANY_SOURCE; break;
      case MPI_WTIME_IS_GLOBAL: slot = 1; break;
      case MPI_UNIVERSE_SIZE: slot = b.model().simulation().size(); break;
      case MPI_LASTUSEDCODE: slot = MPI_ERR_LASTCODE + static_cast<int>(p.added_error_codes.size()); break;
      case MPI_APPNUM: slot = 0; break;
    }
    *static_cast<void**>(value) = &slot;
    *flag = 1;
    return MPI_SUCCESS;
  }
  if (!b.keyvals().find_usable(keyval, KeyvalKind::Comm))
    return bad_keyval(b, comm, keyval);
  std::optional<void*> v = c->attributes.get(keyval);
  *flag = v.has_value();
  if (v)
    *static_cast<void**>(value) = *v;
  return MPI_SUCCESS;
}

int delete_attr(const Binding& b, MPI_Comm comm, int keyval)
{
  Communicator* c = nullptr;
  if (int err = resolve(b, comm, c))
    return err;
  if (is_predefined_comm_keyval(keyval))
    return b.error(comm, MPI_ERR_KEYVAL, "predefined attributes cannot be deleted");
  // A freed keyval still names its attributes (MPI-4.1 §7.7.2).
  if (!b.keyvals().find_referenced(keyval, KeyvalKind::Comm))
    return bad_keyval(b, comm, keyval);
  std::optional<void*> v = c->attributes.get(keyval);
  if (!v)
    return MPI_SUCCESS;
  if (int err = run_delete(b, *c, keyval, *v))
    return b.error(comm, err, "the attribute delete callback failed with code " + std::to_string(err));
  c->attributes.erase(keyval);
  b.keyvals().drop_use(keyval);
  return MPI_SUCCESS;
}

}  // namespace

namespace progsim::mpi {

int copy_attributes(const Binding& b, const Communicator& from, Communicator& to)
{
  for (const auto& [keyval, value] : from.attributes.in_set_order()) {
    Keyval* k = b.keyvals().find(keyval);
    if (!k || !k->copy)
      continue;
    MPI_Comm_copy_attr_function* fn = k->copy;
    void* extra = k->extra_state;
    void* out = nullptr;
    int flag = 0;
    int keyval_arg = keyval;
    void* in = value;
    int err = call_user_code(b.rank(), [&] { return fn(from.handle, keyval_arg, extra, in, &out, &flag); });
    if (err != MPI_SUCCESS)
      return err;
    if (flag) {
      to.attributes.set(keyval, out);
      b.keyvals().add_use(keyval);
    }
  }
  return MPI_SUCCESS;
}

int delete_attributes(const Binding& b, Communicator& comm)
{
  std::vector<std::pair<int, void*>> all = comm.attributes.in_set_order();
  for (auto it = all.rbegin(); it != all.rend(); ++it) {
    if (int err = run_delete(b, comm, it->first, it->second))
      return err;
    comm.attributes.erase(it->first);
    b.keyvals().drop_use(it->first);
  }
  return MPI_SUCCESS;
}

int finalize_communicators(const Binding& b)
{
  Communicator* self = b.model().communicators().get(MPI_COMM_SELF, b.world());
  if (int err = delete_attributes(b, *self))
    return b.error(MPI_COMM_SELF, err, "an attribute delete callback of MPI_COMM_SELF failed");
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi

extern "C" {

int PMPI_Comm_create_keyval(MPI_Comm_copy_attr_function* copy_fn, MPI_Comm_delete_attr_function* delete_fn,
                            int* keyval, void* extra_state)
{
  Binding b("MPI_Comm_create_keyval");
  return create_keyval(b, copy_fn, delete_fn, keyval, extra_state);
}

int PMPI_Comm_free_keyval(int* keyval)
{
  Binding b("MPI_Comm_free_keyval");
  return free_keyval(b, keyval);
}

int PMPI_Comm_set_attr(MPI_Comm comm, int keyval, void* attribute_val)
{
  Binding b("MPI_Comm_set_attr");
  return set_attr(b, comm, keyval, attribute_val);
}

int PMPI_Comm_get_attr(MPI_Comm comm, int keyval, void* attribute_val, int* flag)
{
  Binding b("MPI_Comm_get_attr");
  return get_attr(b, comm, keyval, attribute_val, flag);
}

int PMPI_Comm_delete_attr(MPI_Comm comm, int keyval)
{
  Binding b("MPI_Comm_delete_attr");
  return delete_attr(b, comm, keyval);
}

int PMPI_Keyval_create(MPI_Copy_function* copy_fn, MPI_Delete_function* delete_fn, int* keyval, void* extra_state)
{
  Binding b("MPI_Keyval_create");
  return create_keyval(b, copy_fn, delete_fn, keyval, extra_state);
}

int PMPI_Keyval_free(int* keyval)
{
  Binding b("MPI_Keyval_free");
  return free_keyval(b, keyval);
}

int PMPI_Attr_put(MPI_Comm comm, int keyval, void* attribute_val)
{
  Binding b("MPI_Attr_put");
  return set_attr(b, comm, keyval, attribute_val);
}

int PMPI_Attr_get(MPI_Comm comm, int keyval, void* attribute_val, int* flag)
{
  Binding b("MPI_Attr_get");
  return get_attr(b, comm, keyval, attribute_val, flag);
}

int PMPI_Attr_delete(MPI_Comm comm, int keyval)
{
  Binding b("MPI_Attr_delete");
  return delete_attr(b, comm, keyval);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Comm_create_keyval)
PROGSIM_MPI_ALIAS(MPI_Comm_free_keyval)
PROGSIM_MPI_ALIAS(MPI_Comm_set_attr)
PROGSIM_MPI_ALIAS(MPI_Comm_get_attr)
PROGSIM_MPI_ALIAS(MPI_Comm_delete_attr)
PROGSIM_MPI_ALIAS(MPI_Keyval_create)
PROGSIM_MPI_ALIAS(MPI_Keyval_free)
PROGSIM_MPI_ALIAS(MPI_Attr_put)
PROGSIM_MPI_ALIAS(MPI_Attr_get)
PROGSIM_MPI_ALIAS(MPI_Attr_delete)
