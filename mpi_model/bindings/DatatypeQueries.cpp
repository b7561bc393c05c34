// MPI-4.1 §5.1.5 (addresses), §5.1.6-§5.1.8 (size, extent, true extent;
// with their _x and large-count _c variants), §7.7.4 (attribute caching on
// datatypes), §7.8 (naming datatypes) and §19.1.9 (MPI_Type_match_size).

#include "bindings/Datatypes.hpp"

#include <algorithm>
#include <cstring>
#include <utility>
#include <vector>

using namespace progsim;
using namespace progsim::mpi;

namespace {

// A type keyval the program may still use (`referenced`: or delete its
// attributes with, MPI-4.1 §7.7.2), or MPI_ERR_KEYVAL raised.
int resolve_keyval(const Binding& b, int keyval, bool referenced = false)
{
  Keyval* k = referenced ? b.keyvals().find_referenced(keyval, KeyvalKind::Type)
                         : b.keyvals().find_usable(keyval, KeyvalKind::Type);
  if (k)
    return MPI_SUCCESS;
  return b.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, b.keyvals().why_unusable(keyval, KeyvalKind::Type));
}

// Runs the delete callback of one attribute value.
int call_delete(const Binding& b, MPI_Datatype datatype, int keyval, void* value)
{
  Keyval* k = b.keyvals().find(keyval);
  if (!k || !k->del)
    return MPI_SUCCESS;
  // Stored as the communicator callback type (Attributes.hpp).
  auto* del = reinterpret_cast<MPI_Type_delete_attr_function*>(k->del);
  void* extra = k->extra_state;
  int err = del(datatype, keyval, value, extra);  // may call MPI, even create types
  if (err != MPI_SUCCESS)
    return b.error(MPI_COMM_WORLD, err,
                   "the delete callback of keyval " + std::to_string(keyval) + " returned " + std::to_string(err));
  return MPI_SUCCESS;
}

template <class T>
int get_extent(const char* call, MPI_Datatype datatype, T* lb, T* extent, bool true_extent)
{
  Binding b(call, sim::CallKind::LocalQuery);  // process-local: may stay deferred (CallScope.hpp)
  if (int err = b.check_initialized())
    return err;
  const dt::Datatype* t = nullptr;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (!lb || !extent)
    return null_arg(b, "an output argument");
  *lb = static_cast<T>(true_extent ? t->true_lb() : t->lb());
  *extent = static_cast<T>(true_extent ? t->true_extent() : t->extent());
  return MPI_SUCCESS;
}

int type_size(const char* call, MPI_Datatype datatype, MPI_Count* size)
{
  Binding b(call, sim::CallKind::LocalQuery);  // process-local: may stay deferred (CallScope.hpp)
  if (int err = b.check_initialized())
    return err;
  const dt::Datatype* t = nullptr;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (!size)
    return null_arg(b, "size");
  *size = t->size();
  return MPI_SUCCESS;
}

}  // namespace

namespace progsim::mpi {

int invalid_type(const Binding& b, MPI_Datatype handle, const char* what, MPI_Comm comm)
{
  std::string why = handle == MPI_DATATYPE_NULL          ? "MPI_DATATYPE_NULL"
                    : b.model().datatypes().find(handle) ? "freed datatype handle"
                                                          : "unknown datatype handle";
  return b.error(comm, MPI_ERR_TYPE, std::string(what) + " is " + why);
}

int copy_type_attributes(const Binding& b, MPI_Datatype oldtype, MPI_Datatype newtype)
{
  DatatypeTable& table = b.model().datatypes();
  // A snapshot: callbacks may change the table (and move its entries).
  const TypeAttributes attributes = table.attributes(oldtype, b.world());
  for (const auto& [keyval, value] : attributes) {
    Keyval* k = b.keyvals().find(keyval);
    if (!k || !k->copy)
      continue;
    auto* copy = reinterpret_cast<MPI_Type_copy_attr_function*>(k->copy);
    void* out = nullptr;
    int flag = 0;
    int err = copy(oldtype, keyval, k->extra_state, value, &out, &flag);
    if (err != MPI_SUCCESS)
      return b.error(MPI_COMM_WORLD, err,
                     "the copy callback of keyval " + std::to_string(keyval) + " returned " + std::to_string(err));
    if (flag) {
      table.attributes(newtype, b.world())[keyval] = out;
      b.keyvals().add_use(keyval);
    }
  }
  return MPI_SUCCESS;
}

int delete_type_attributes(const Binding& b, MPI_Datatype datatype)
{
  DatatypeTable& table = b.model().datatypes();
  const TypeAttributes attributes = table.attributes(datatype, b.world());
  for (const auto& [keyval, value] : attributes) {
    if (int err = call_delete(b, datatype, keyval, value))
      return err;
    table.attributes(datatype, b.world()).erase(keyval);
    b.keyvals().drop_use(keyval);
  }
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi

extern "C" {

// MPI_UNDEFINED when the size does not fit in an int (MPI-4.1 §5.1.6).
int PMPI_Type_size(MPI_Datatype datatype, int* size)
{
  MPI_Count n = 0;
  int err = type_size("MPI_Type_size", datatype, size ? &n : nullptr);
  if (err == MPI_SUCCESS)
    *size = int_or_undefined(n);
  return err;
}

int PMPI_Type_size_x(MPI_Datatype datatype, MPI_Count* size)
{
  return type_size("MPI_Type_size_x", datatype, size);
}

int PMPI_Type_size_c(MPI_Datatype datatype, MPI_Count* size)
{
  return type_size("MPI_Type_size_c", datatype, size);
}

int PMPI_Type_get_extent(MPI_Datatype datatype, MPI_Aint* lb, MPI_Aint* extent)
{
  return get_extent("MPI_Type_get_extent", datatype, lb, extent, false);
}

int PMPI_Type_get_extent_x(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent)
{
  return get_extent("MPI_Type_get_extent_x", datatype, lb, extent, false);
}

int PMPI_Type_get_extent_c(MPI_Datatype datatype, MPI_Count* lb, MPI_Count* extent)
{
  return get_extent("MPI_Type_get_extent_c", datatype, lb, extent, false);
}

int PMPI_Type_get_true_extent(MPI_Datatype datatype, MPI_Aint* true_lb, MPI_Aint* true_extent)
{
  return get_extent("MPI_Type_get_true_extent", datatype, true_lb, true_extent, true);
}

int PMPI_Type_get_true_extent_x(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent)
{
  return get_extent("MPI_Type_get_true_extent_x", datatype, true_lb, true_extent, true);
}

int PMPI_Type_get_true_extent_c(MPI_Datatype datatype, MPI_Count* true_lb, MPI_Count* true_extent)
{
  return get_extent("MPI_Type_get_true_extent_c", datatype, true_lb, true_extent, true);
}

// MPI-1's MPI_Type_extent, MPI_Type_lb and MPI_Type_ub (removed in MPI-3.0).
int PMPI_Type_extent(MPI_Datatype datatype, MPI_Aint* extent)
{
  MPI_Aint lb = 0;
  return get_extent("MPI_Type_extent", datatype, &lb, extent, false);
}

int PMPI_Type_lb(MPI_Datatype datatype, MPI_Aint* displacement)
{
  MPI_Aint extent = 0;
  return get_extent("MPI_Type_lb", datatype, displacement, &extent, false);
}

int PMPI_Type_ub(MPI_Datatype datatype, MPI_Aint* displacement)
{
  MPI_Aint lb = 0, extent = 0;
  int err = get_extent("MPI_Type_ub", datatype, &lb, &extent, false);
  if (err == MPI_SUCCESS && displacement)
    *displacement = lb + extent;
  return err;
}

int PMPI_Get_address(const void* location, MPI_Aint* address)
{
  Binding b("MPI_Get_address");
  if (int err = b.check_initialized())
    return err;
  if (!address)
    return null_arg(b, "address");
  *address = reinterpret_cast<MPI_Aint>(location);
  return MPI_SUCCESS;
}

// MPI-4.1 §5.1.5: address arithmetic (plain integer arithmetic here, with
// wrap-around rather than overflow).
MPI_Aint PMPI_Aint_add(MPI_Aint base, MPI_Aint disp)
{
  Binding b("MPI_Aint_add");
  return static_cast<MPI_Aint>(static_cast<unsigned long>(base) + static_cast<unsigned long>(disp));
}

MPI_Aint PMPI_Aint_diff(MPI_Aint addr1, MPI_Aint addr2)
{
  Binding b("MPI_Aint_diff");
  return static_cast<MPI_Aint>(static_cast<unsigned long>(addr1) - static_cast<unsigned long>(addr2));
}

int PMPI_Type_get_name(MPI_Datatype datatype, char* type_name, int* resultlen)
{
  Binding b("MPI_Type_get_name");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (!type_name || !resultlen)
    return null_arg(b, !type_name ? "type_name" : "resultlen");
  std::string name = b.model().datatypes().name(datatype, b.world());
  name.resize(std::min<std::size_t>(name.size(), MPI_MAX_OBJECT_NAME - 1));
  std::memcpy(type_name, name.c_str(), name.size() + 1);
  *resultlen = static_cast<int>(name.size());
  return MPI_SUCCESS;
}

// Names longer than MPI_MAX_OBJECT_NAME - 1 characters are truncated.
int PMPI_Type_set_name(MPI_Datatype datatype, const char* type_name)
{
  Binding b("MPI_Type_set_name");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (!type_name)
    return null_arg(b, "type_name");
  std::string name(type_name, strnlen(type_name, MPI_MAX_OBJECT_NAME - 1));
  b.model().datatypes().set_name(datatype, b.world(), name);
  return MPI_SUCCESS;
}

// MPI-4.1 §19.1.9: the Fortran sized type of that class and size.
int PMPI_Type_match_size(int typeclass, int size, MPI_Datatype* datatype)
{
  Binding b("MPI_Type_match_size");
  if (int err = b.check_initialized())
    return err;
  if (!datatype)
    return null_arg(b, "datatype");
  static const struct {
    int typeclass;
    MPI_Datatype type;
  } kCandidates[] = {
      {MPI_TYPECLASS_REAL, MPI_REAL4},        {MPI_TYPECLASS_REAL, MPI_REAL8},
      {MPI_TYPECLASS_REAL, MPI_REAL16},       {MPI_TYPECLASS_INTEGER, MPI_INTEGER1},
      {MPI_TYPECLASS_INTEGER, MPI_INTEGER2},  {MPI_TYPECLASS_INTEGER, MPI_INTEGER4},
      {MPI_TYPECLASS_INTEGER, MPI_INTEGER8},  {MPI_TYPECLASS_COMPLEX, MPI_COMPLEX8},
      {MPI_TYPECLASS_COMPLEX, MPI_COMPLEX16}, {MPI_TYPECLASS_COMPLEX, MPI_COMPLEX32},
  };
  if (typeclass != MPI_TYPECLASS_REAL && typeclass != MPI_TYPECLASS_INTEGER && typeclass != MPI_TYPECLASS_COMPLEX)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "invalid typeclass " + std::to_string(typeclass));
  for (const auto& c : kCandidates) {
    if (c.typeclass == typeclass && b.model().datatypes().find(c.type)->size() == size) {
      *datatype = c.type;
      return MPI_SUCCESS;
    }
  }
  return b.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                 "no predefined type of this typeclass has size " + std::to_string(size));
}

int PMPI_Type_create_keyval(MPI_Type_copy_attr_function* type_copy_attr_fn,
                            MPI_Type_delete_attr_function* type_delete_attr_fn, int* type_keyval, void* extra_state)
{
  Binding b("MPI_Type_create_keyval");
  if (int err = b.check_initialized())
    return err;
  if (!type_keyval)
    return null_arg(b, "type_keyval");
  Keyval k;
  k.kind = KeyvalKind::Type;
  // The same C type as the communicator callbacks (handles are ints).
  k.copy = reinterpret_cast<MPI_Comm_copy_attr_function*>(type_copy_attr_fn);
  k.del = reinterpret_cast<MPI_Comm_delete_attr_function*>(type_delete_attr_fn);
  k.extra_state = extra_state;
  *type_keyval = b.keyvals().create(k);
  return MPI_SUCCESS;
}

// The keyval stays for the attributes still using it (their delete
// callbacks still run, the program may still delete them with it); the
// program can no longer set or get attributes with it (MPI-4.1 §7.7.2).
int PMPI_Type_free_keyval(int* type_keyval)
{
  Binding b("MPI_Type_free_keyval");
  if (int err = b.check_initialized())
    return err;
  if (!type_keyval)
    return null_arg(b, "type_keyval");
  if (!b.keyvals().free_keyval(*type_keyval, KeyvalKind::Type))
    return b.error(MPI_COMM_WORLD, MPI_ERR_KEYVAL, b.keyvals().why_unusable(*type_keyval, KeyvalKind::Type));
  *type_keyval = MPI_KEYVAL_INVALID;
  return MPI_SUCCESS;
}

int PMPI_Type_set_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val)
{
  Binding b("MPI_Type_set_attr");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (int err = resolve_keyval(b, type_keyval))
    return err;
  DatatypeTable& table = b.model().datatypes();
  TypeAttributes& attributes = table.attributes(datatype, b.world());
  auto it = attributes.find(type_keyval);
  if (it != attributes.end()) {
    // Replacing a value deletes the old one first (MPI-4.1 §7.7.2).
    if (int err = call_delete(b, datatype, type_keyval, it->second))
      return err;
  } else {
    b.keyvals().add_use(type_keyval);
  }
  table.attributes(datatype, b.world())[type_keyval] = attribute_val;
  return MPI_SUCCESS;
}

int PMPI_Type_get_attr(MPI_Datatype datatype, int type_keyval, void* attribute_val, int* flag)
{
  Binding b("MPI_Type_get_attr");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (int err = resolve_keyval(b, type_keyval))
    return err;
  if (!attribute_val || !flag)
    return null_arg(b, !flag ? "flag" : "attribute_val");
  const TypeAttributes& attributes = b.model().datatypes().attributes(datatype, b.world());
  auto it = attributes.find(type_keyval);
  *flag = it != attributes.end();
  if (*flag)
    *static_cast<void**>(attribute_val) = it->second;
  return MPI_SUCCESS;
}

int PMPI_Type_delete_attr(MPI_Datatype datatype, int type_keyval)
{
  Binding b("MPI_Type_delete_attr");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (int err = resolve_keyval(b, type_keyval, /*referenced=*/true))
    return err;
  DatatypeTable& table = b.model().datatypes();
  TypeAttributes& attributes = table.attributes(datatype, b.world());
  auto it = attributes.find(type_keyval);
  if (it == attributes.end())
    return MPI_SUCCESS;
  if (int err = call_delete(b, datatype, type_keyval, it->second))
    return err;
  table.attributes(datatype, b.world()).erase(type_keyval);
  b.keyvals().drop_use(type_keyval);
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Type_size)
PROGSIM_MPI_ALIAS(MPI_Type_size_x)
PROGSIM_MPI_ALIAS(MPI_Type_size_c)
PROGSIM_MPI_ALIAS(MPI_Type_get_extent)
PROGSIM_MPI_ALIAS(MPI_Type_get_extent_x)
PROGSIM_MPI_ALIAS(MPI_Type_get_extent_c)
PROGSIM_MPI_ALIAS(MPI_Type_get_true_extent)
PROGSIM_MPI_ALIAS(MPI_Type_get_true_extent_x)
PROGSIM_MPI_ALIAS(MPI_Type_get_true_extent_c)
PROGSIM_MPI_ALIAS(MPI_Get_address)
PROGSIM_MPI_ALIAS(MPI_Type_extent)
PROGSIM_MPI_ALIAS(MPI_Type_lb)
PROGSIM_MPI_ALIAS(MPI_Type_ub)
PROGSIM_MPI1_ALIAS(Address, Get_address)
PROGSIM_MPI_ALIAS(MPI_Aint_add)
PROGSIM_MPI_ALIAS(MPI_Aint_diff)
PROGSIM_MPI_ALIAS(MPI_Type_get_name)
PROGSIM_MPI_ALIAS(MPI_Type_set_name)
PROGSIM_MPI_ALIAS(MPI_Type_match_size)
PROGSIM_MPI_ALIAS(MPI_Type_create_keyval)
PROGSIM_MPI_ALIAS(MPI_Type_free_keyval)
PROGSIM_MPI_ALIAS(MPI_Type_set_attr)
PROGSIM_MPI_ALIAS(MPI_Type_get_attr)
PROGSIM_MPI_ALIAS(MPI_Type_delete_attr)
