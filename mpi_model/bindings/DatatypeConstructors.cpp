// MPI-4.1 §5.1.2-§5.1.7 (type constructors), §5.1.9 (commit and free),
// §5.1.13 (decoding: envelope and contents), MPI_Type_dup (§5.1.10) and
// MPI_Type_get_value_index (§6.9.4). The datatype engine builds the types
// (datatype/TypeConstructors.hpp); these bindings check handles, translate
// the mpi.h constants and manage the handle table.

#include "bindings/Datatypes.hpp"

#include "datatype/TypeConstructors.hpp"

#include <vector>

using namespace progsim;
using namespace progsim::mpi;

namespace {

// mpi.h <-> engine constants (the engine numbers them as MPICH does).
int engine_order(int order)
{
  switch (order) {
  case MPI_ORDER_C:
    return static_cast<int>(dt::Order::C);
  case MPI_ORDER_FORTRAN:
    return static_cast<int>(dt::Order::Fortran);
  default:
    return -1;  // rejected by the engine (MPI_ERR_ARG)
  }
}

int mpi_order(std::int64_t order)
{
  return order == static_cast<int>(dt::Order::Fortran) ? MPI_ORDER_FORTRAN : MPI_ORDER_C;
}

int engine_distribution(int distrib)
{
  switch (distrib) {
  case MPI_DISTRIBUTE_BLOCK:
    return static_cast<int>(dt::Distribution::Block);
  case MPI_DISTRIBUTE_CYCLIC:
    return static_cast<int>(dt::Distribution::Cyclic);
  case MPI_DISTRIBUTE_NONE:
    return static_cast<int>(dt::Distribution::None);
  default:
    return -1;
  }
}

int mpi_distribution(std::int64_t distrib)
{
  switch (static_cast<dt::Distribution>(distrib)) {
  case dt::Distribution::Block:
    return MPI_DISTRIBUTE_BLOCK;
  case dt::Distribution::Cyclic:
    return MPI_DISTRIBUTE_CYCLIC;
  default:
    return MPI_DISTRIBUTE_NONE;
  }
}

int engine_darg(int darg)
{
  if (darg == MPI_DISTRIBUTE_DFLT_DARG)
    return static_cast<int>(dt::kDistributeDefaultDarg);
  if (darg == static_cast<int>(dt::kDistributeDefaultDarg))
    return -1;  // not a valid darg in this mpi.h
  return darg;
}

int mpi_darg(std::int64_t darg)
{
  return darg == dt::kDistributeDefaultDarg ? MPI_DISTRIBUTE_DFLT_DARG : static_cast<int>(darg);
}

int mpi_combiner(dt::Combiner combiner)
{
  switch (combiner) {
  case dt::Combiner::Named:
    return MPI_COMBINER_NAMED;
  case dt::Combiner::Dup:
    return MPI_COMBINER_DUP;
  case dt::Combiner::Contiguous:
    return MPI_COMBINER_CONTIGUOUS;
  case dt::Combiner::Vector:
    return MPI_COMBINER_VECTOR;
  case dt::Combiner::Hvector:
    return MPI_COMBINER_HVECTOR;
  case dt::Combiner::Indexed:
    return MPI_COMBINER_INDEXED;
  case dt::Combiner::Hindexed:
    return MPI_COMBINER_HINDEXED;
  case dt::Combiner::IndexedBlock:
    return MPI_COMBINER_INDEXED_BLOCK;
  case dt::Combiner::HindexedBlock:
    return MPI_COMBINER_HINDEXED_BLOCK;
  case dt::Combiner::Struct:
    return MPI_COMBINER_STRUCT;
  case dt::Combiner::Subarray:
    return MPI_COMBINER_SUBARRAY;
  case dt::Combiner::Darray:
    return MPI_COMBINER_DARRAY;
  case dt::Combiner::Resized:
    return MPI_COMBINER_RESIZED;
  }
  return MPI_COMBINER_NAMED;
}

// Common frame of the constructors: checks, builds (build() returns the
// engine type) and stores the new handle.
template <class Build>
int construct(const char* call, MPI_Datatype oldtype, MPI_Datatype* newtype, Build&& build)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr old;
  if (int err = resolve_type(b, oldtype, old, "oldtype"))
    return err;
  if (!newtype)
    return null_arg(b, "newtype");
  return engine_call(b, MPI_COMM_WORLD, [&] {
    dt::DatatypePtr t = build(old);
    *newtype = b.model().datatypes().insert(std::move(t), b.world());
    return MPI_SUCCESS;
  });
}

// The constituent types of a decoded type as handles: predefined handles
// for predefined types, new handles for derived ones (MPI-4.1 §5.1.13).
MPI_Datatype constituent_handle(const Binding& b, const dt::DatatypePtr& t)
{
  if (t->is_predefined())
    return DatatypeTable::predefined_handle(*t);
  DatatypeTable& table = b.model().datatypes();
  return table.insert(t, b.world(), table.object_committed(t));
}

}  // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_contiguous", oldtype, newtype,
                   [&](const dt::DatatypePtr& old) { return dt::make_contiguous(count, old); });
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_vector", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_vector(count, blocklength, stride, old);
  });
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype* newtype)
{
  return construct("MPI_Type_create_hvector", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_hvector(count, blocklength, stride, old);
  });
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_indexed", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_indexed(count, array_of_blocklengths, array_of_displacements, old);
  });
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_create_hindexed", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_hindexed(count, array_of_blocklengths, array_of_displacements, old);
  });
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_create_indexed_block", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_indexed_block(count, blocklength, array_of_displacements, old);
  });
}

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_create_hindexed_block", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_hindexed_block(count, blocklength, array_of_displacements, old);
  });
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype* newtype)
{
  Binding b("MPI_Type_create_struct");
  if (int err = b.check_initialized())
    return err;
  if (count < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (count > 0 && !array_of_types)
    return null_arg(b, "array_of_types");
  if (!newtype)
    return null_arg(b, "newtype");
  std::vector<dt::DatatypePtr> types(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) {
    std::string what = "array_of_types[" + std::to_string(i) + "]";
    if (int err = resolve_type(b, array_of_types[i], types[static_cast<std::size_t>(i)], what.c_str()))
      return err;
  }
  return engine_call(b, MPI_COMM_WORLD, [&] {
    dt::DatatypePtr t = dt::make_struct(count, array_of_blocklengths, array_of_displacements, types);
    *newtype = b.model().datatypes().insert(std::move(t), b.world());
    return MPI_SUCCESS;
  });
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_create_subarray", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_subarray(ndims, array_of_sizes, array_of_subsizes, array_of_starts, engine_order(order), old);
  });
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                            int order, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct("MPI_Type_create_darray", oldtype, newtype, [&](const dt::DatatypePtr& old) {
    if (ndims <= 0)
      throw dt::DatatypeError(dt::ErrorClass::Arg, "darray: ndims must be positive");
    if (!array_of_distribs || !array_of_dargs)
      throw dt::DatatypeError(dt::ErrorClass::Arg, "darray: null array_of_distribs or array_of_dargs");
    std::vector<int> distribs(static_cast<std::size_t>(ndims)), dargs(static_cast<std::size_t>(ndims));
    for (std::size_t i = 0; i < distribs.size(); ++i) {
      distribs[i] = engine_distribution(array_of_distribs[i]);
      dargs[i] = engine_darg(array_of_dargs[i]);
    }
    return dt::make_darray(size, rank, ndims, array_of_gsizes, distribs.data(), dargs.data(), array_of_psizes,
                           engine_order(order), old);
  });
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype)
{
  return construct("MPI_Type_create_resized", oldtype, newtype,
                   [&](const dt::DatatypePtr& old) { return dt::make_resized(old, lb, extent); });
}

// MPI_Type_dup (MPI-4.1 §5.1.10): same type, committed if the old one is,
// attributes copied by their copy callbacks; names are not copied.
int PMPI_Type_dup(MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  Binding b("MPI_Type_dup");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr old;
  if (int err = resolve_type(b, oldtype, old, "oldtype"))
    return err;
  if (!newtype)
    return null_arg(b, "newtype");
  DatatypeTable& table = b.model().datatypes();
  MPI_Datatype handle = MPI_DATATYPE_NULL;
  if (int err = engine_call(b, MPI_COMM_WORLD, [&] {
        handle = table.insert(dt::make_dup(old), b.world(), table.is_committed(oldtype));
        return MPI_SUCCESS;
      }))
    return err;
  if (int err = copy_type_attributes(b, oldtype, handle)) {
    delete_type_attributes(b, handle);
    table.erase(handle);
    return err;
  }
  *newtype = handle;
  return MPI_SUCCESS;
}

int PMPI_Type_commit(MPI_Datatype* datatype)
{
  Binding b("MPI_Type_commit");
  if (int err = b.check_initialized())
    return err;
  if (!datatype)
    return null_arg(b, "datatype");
  dt::DatatypePtr t;
  if (int err = resolve_type(b, *datatype, t))
    return err;
  b.model().datatypes().commit(*datatype);
  return MPI_SUCCESS;
}

// MPI_Type_free (MPI-4.1 §5.1.9): the handle becomes MPI_DATATYPE_NULL;
// types built from it and operations using it are not affected.
int PMPI_Type_free(MPI_Datatype* datatype)
{
  Binding b("MPI_Type_free");
  if (int err = b.check_initialized())
    return err;
  if (!datatype)
    return null_arg(b, "datatype");
  dt::DatatypePtr t;
  if (int err = resolve_type(b, *datatype, t))
    return err;
  if (t->is_predefined())
    return b.error(MPI_COMM_WORLD, MPI_ERR_TYPE, std::string("cannot free the predefined datatype ") + t->name());
  if (int err = delete_type_attributes(b, *datatype))
    return err;
  b.model().datatypes().erase(*datatype);
  *datatype = MPI_DATATYPE_NULL;
  return MPI_SUCCESS;
}

int PMPI_Type_get_envelope(MPI_Datatype datatype, int* num_integers, int* num_addresses, int* num_datatypes,
                           int* combiner)
{
  Binding b("MPI_Type_get_envelope");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (!num_integers || !num_addresses || !num_datatypes || !combiner)
    return null_arg(b, "an output argument");
  if (t->is_predefined()) {
    *num_integers = *num_addresses = *num_datatypes = 0;
    *combiner = MPI_COMBINER_NAMED;
    return MPI_SUCCESS;
  }
  dt::Envelope e = t->envelope();
  *num_integers = static_cast<int>(e.num_integers);
  *num_addresses = static_cast<int>(e.num_addresses);
  *num_datatypes = static_cast<int>(e.num_datatypes);
  *combiner = mpi_combiner(e.combiner);
  return MPI_SUCCESS;
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
  Binding b("MPI_Type_get_contents");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (t->is_predefined())
    return b.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   std::string("the predefined datatype ") + t->name() + " has no contents (combiner MPI_COMBINER_NAMED)");
  const dt::Contents& c = t->contents();
  auto too_small = [&](const char* what, int max, std::size_t need) {
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   std::string(what) + " = " + std::to_string(max) + " is smaller than the " + std::to_string(need) +
                       " given by MPI_Type_get_envelope");
  };
  if (max_integers < 0 || static_cast<std::size_t>(max_integers) < c.integers.size())
    return too_small("max_integers", max_integers, c.integers.size());
  if (max_addresses < 0 || static_cast<std::size_t>(max_addresses) < c.addresses.size())
    return too_small("max_addresses", max_addresses, c.addresses.size());
  if (max_datatypes < 0 || static_cast<std::size_t>(max_datatypes) < c.datatypes.size())
    return too_small("max_datatypes", max_datatypes, c.datatypes.size());
  if ((!c.integers.empty() && !array_of_integers) || (!c.addresses.empty() && !array_of_addresses) ||
      (!c.datatypes.empty() && !array_of_datatypes))
    return null_arg(b, "an output array");

  for (std::size_t i = 0; i < c.integers.size(); ++i)
    array_of_integers[i] = static_cast<int>(c.integers[i]);
  // Translate the engine's order / distribution numbers to mpi.h's.
  if (t->combiner() == dt::Combiner::Subarray) {
    array_of_integers[c.integers.size() - 1] = mpi_order(c.integers.back());
  } else if (t->combiner() == dt::Combiner::Darray) {
    const std::size_t ndims = static_cast<std::size_t>(c.integers[2]);
    for (std::size_t i = 0; i < ndims; ++i) {
      array_of_integers[3 + ndims + i] = mpi_distribution(c.integers[3 + ndims + i]);
      array_of_integers[3 + 2 * ndims + i] = mpi_darg(c.integers[3 + 2 * ndims + i]);
    }
    array_of_integers[c.integers.size() - 1] = mpi_order(c.integers.back());
  }
  for (std::size_t i = 0; i < c.addresses.size(); ++i)
    array_of_addresses[i] = static_cast<MPI_Aint>(c.addresses[i]);
  for (std::size_t i = 0; i < c.datatypes.size(); ++i)
    array_of_datatypes[i] = constituent_handle(b, c.datatypes[i]);
  return MPI_SUCCESS;
}

// MPI-4.1 §6.9.4: the predefined pair type for (value, index), or
// MPI_DATATYPE_NULL if there is none.
int PMPI_Type_get_value_index(MPI_Datatype value_type, MPI_Datatype index_type, MPI_Datatype* pair_type)
{
  Binding b("MPI_Type_get_value_index");
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr v, i;
  if (int err = resolve_type(b, value_type, v, "value_type"))
    return err;
  if (int err = resolve_type(b, index_type, i, "index_type"))
    return err;
  if (!pair_type)
    return null_arg(b, "pair_type");
  static const struct {
    MPI_Datatype value, index, pair;
  } kPairs[] = {
      {MPI_FLOAT, MPI_INT, MPI_FLOAT_INT},
      {MPI_DOUBLE, MPI_INT, MPI_DOUBLE_INT},
      {MPI_LONG, MPI_INT, MPI_LONG_INT},
      {MPI_INT, MPI_INT, MPI_2INT},
      {MPI_SHORT, MPI_INT, MPI_SHORT_INT},
      {MPI_LONG_DOUBLE, MPI_INT, MPI_LONG_DOUBLE_INT},
      {MPI_REAL, MPI_REAL, MPI_2REAL},
      {MPI_DOUBLE_PRECISION, MPI_DOUBLE_PRECISION, MPI_2DOUBLE_PRECISION},
      {MPI_INTEGER, MPI_INTEGER, MPI_2INTEGER},
  };
  *pair_type = MPI_DATATYPE_NULL;
  for (const auto& p : kPairs)
    if (p.value == value_type && p.index == index_type)
      *pair_type = p.pair;
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Type_contiguous)
PROGSIM_MPI_ALIAS(MPI_Type_vector)
PROGSIM_MPI_ALIAS(MPI_Type_create_hvector)
PROGSIM_MPI_ALIAS(MPI_Type_indexed)
PROGSIM_MPI_ALIAS(MPI_Type_create_hindexed)
PROGSIM_MPI_ALIAS(MPI_Type_create_indexed_block)
PROGSIM_MPI_ALIAS(MPI_Type_create_hindexed_block)
PROGSIM_MPI_ALIAS(MPI_Type_create_struct)
PROGSIM_MPI_ALIAS(MPI_Type_create_subarray)
PROGSIM_MPI_ALIAS(MPI_Type_create_darray)
PROGSIM_MPI_ALIAS(MPI_Type_create_resized)
PROGSIM_MPI_ALIAS(MPI_Type_dup)
PROGSIM_MPI_ALIAS(MPI_Type_commit)
PROGSIM_MPI_ALIAS(MPI_Type_free)
PROGSIM_MPI_ALIAS(MPI_Type_get_envelope)
PROGSIM_MPI_ALIAS(MPI_Type_get_contents)
PROGSIM_MPI_ALIAS(MPI_Type_get_value_index)

PROGSIM_MPI1_ALIAS(Type_hvector, Type_create_hvector)
PROGSIM_MPI1_ALIAS(Type_hindexed, Type_create_hindexed)
PROGSIM_MPI1_ALIAS(Type_struct, Type_create_struct)
