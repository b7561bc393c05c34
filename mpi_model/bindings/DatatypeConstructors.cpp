// MPI-4.1 §5.1.2-§5.1.7 (type constructors), §5.1.9 (commit and free),
// §5.1.13 (decoding: envelope and contents), MPI_Type_dup (§5.1.10) and
// MPI_Type_get_value_index (§6.9.4). The datatype engine builds the types
// (datatype/TypeConstructors.hpp); these bindings check handles, translate
// the mpi.h constants and manage the handle table. The constructors and the
// decoding procedures have large-count variants (_c, §19.2): both versions
// call the same helpers, templated on the integer type of the arrays; a
// type built by a _c constructor decodes with its count arguments as large
// counts, which only MPI_Type_get_envelope_c/get_contents_c can return.

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

// Stores a type made by a constructor as a new handle; `large`: made by the
// large-count (_c) variant.
int store_new_type(const Binding& b, dt::DatatypePtr t, bool large, MPI_Datatype* newtype)
{
  if (large)
    t = dt::with_large_counts(t);
  *newtype = b.model().datatypes().insert(std::move(t), b.world());
  return MPI_SUCCESS;
}

// Common frame of the constructors: checks, builds (build() returns the
// engine type) and stores the new handle.
template <class Build>
int construct(const char* call, bool large, MPI_Datatype oldtype, MPI_Datatype* newtype, Build&& build)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  dt::DatatypePtr old;
  if (int err = resolve_type(b, oldtype, old, "oldtype"))
    return err;
  if (!newtype)
    return null_arg(b, "newtype");
  return engine_call(b, MPI_COMM_WORLD, [&] { return store_new_type(b, build(old), large, newtype); });
}

int contiguous(const char* call, bool large, std::int64_t count, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype,
                   [&](const dt::DatatypePtr& old) { return dt::make_contiguous(count, old); });
}

int vector(const char* call, bool large, std::int64_t count, std::int64_t blocklength, std::int64_t stride,
           MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_vector(count, blocklength, stride, old);
  });
}

int hvector(const char* call, bool large, std::int64_t count, std::int64_t blocklength, std::int64_t stride,
            MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_hvector(count, blocklength, stride, old);
  });
}

template <class B, class D>
int indexed(const char* call, bool large, std::int64_t count, const B* blocklengths, const D* displacements,
            MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_indexed(count, blocklengths, displacements, old);
  });
}

template <class B, class D>
int hindexed(const char* call, bool large, std::int64_t count, const B* blocklengths, const D* displacements,
             MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_hindexed(count, blocklengths, displacements, old);
  });
}

template <class D>
int indexed_block(const char* call, bool large, std::int64_t count, std::int64_t blocklength,
                  const D* displacements, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_indexed_block(count, blocklength, displacements, old);
  });
}

template <class D>
int hindexed_block(const char* call, bool large, std::int64_t count, std::int64_t blocklength,
                   const D* displacements, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_hindexed_block(count, blocklength, displacements, old);
  });
}

template <class B, class D>
int struct_type(const char* call, bool large, std::int64_t count, const B* blocklengths, const D* displacements,
                const MPI_Datatype array_of_types[], MPI_Datatype* newtype)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  if (count < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (count > 0 && !array_of_types)
    return null_arg(b, "array_of_types");
  if (!newtype)
    return null_arg(b, "newtype");
  std::vector<dt::DatatypePtr> types(static_cast<std::size_t>(count));
  for (std::size_t i = 0; i < types.size(); ++i) {
    std::string what = "array_of_types[" + std::to_string(i) + "]";
    if (int err = resolve_type(b, array_of_types[i], types[i], what.c_str()))
      return err;
  }
  return engine_call(b, MPI_COMM_WORLD, [&] {
    return store_new_type(b, dt::make_struct(count, blocklengths, displacements, types), large, newtype);
  });
}

template <class T>
int subarray(const char* call, bool large, int ndims, const T* sizes, const T* subsizes, const T* starts, int order,
             MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    return dt::make_subarray(ndims, sizes, subsizes, starts, engine_order(order), old);
  });
}

template <class T>
int darray(const char* call, bool large, int size, int rank, int ndims, const T* gsizes,
           const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[], int order,
           MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype, [&](const dt::DatatypePtr& old) {
    if (ndims <= 0)
      throw dt::DatatypeError(dt::ErrorClass::Arg, "darray: ndims must be positive");
    if (!array_of_distribs || !array_of_dargs)
      throw dt::DatatypeError(dt::ErrorClass::Arg, "darray: null array_of_distribs or array_of_dargs");
    std::vector<int> distribs(static_cast<std::size_t>(ndims)), dargs(static_cast<std::size_t>(ndims));
    for (std::size_t i = 0; i < distribs.size(); ++i) {
      distribs[i] = engine_distribution(array_of_distribs[i]);
      dargs[i] = engine_darg(array_of_dargs[i]);
    }
    return dt::make_darray(size, rank, ndims, gsizes, distribs.data(), dargs.data(), array_of_psizes,
                           engine_order(order), old);
  });
}

int resized(const char* call, bool large, MPI_Datatype oldtype, std::int64_t lb, std::int64_t extent,
            MPI_Datatype* newtype)
{
  return construct(call, large, oldtype, newtype,
                   [&](const dt::DatatypePtr& old) { return dt::make_resized(old, lb, extent); });
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

// The arguments of a type's constructor as MPI_Type_get_contents(_c)
// returns them (MPI-4.1 §5.1.13), with the mpi.h constants. For a type
// built by a _c constructor the count arguments (every integer and address
// argument, except ndims, order and the int arrays of subarray and darray)
// are large counts.
struct Decoded {
  std::vector<std::int64_t> integers, addresses, large_counts;
  const std::vector<dt::DatatypePtr>* datatypes = nullptr;
};

Decoded decode(const dt::Datatype& t)
{
  const dt::Contents& c = t.contents();
  Decoded d;
  d.integers = c.integers;
  d.addresses = c.addresses;
  d.datatypes = &c.datatypes;
  std::vector<std::int64_t>& i = d.integers;
  if (t.combiner() == dt::Combiner::Subarray) {
    i.back() = mpi_order(i.back());
  } else if (t.combiner() == dt::Combiner::Darray) {
    const std::size_t ndims = static_cast<std::size_t>(i[2]);
    for (std::size_t k = 0; k < ndims; ++k) {
      i[3 + ndims + k] = mpi_distribution(i[3 + ndims + k]);
      i[3 + 2 * ndims + k] = mpi_darg(i[3 + 2 * ndims + k]);
    }
    i.back() = mpi_order(i.back());
  }
  if (!c.large_counts)
    return d;
  auto span = [&i](std::size_t from, std::size_t to) {
    return std::vector<std::int64_t>(i.begin() + static_cast<std::ptrdiff_t>(from),
                                     i.begin() + static_cast<std::ptrdiff_t>(to));
  };
  if (t.combiner() == dt::Combiner::Subarray) {
    // i = {ndims, order}, c = {sizes, subsizes, starts}
    const std::size_t ndims = static_cast<std::size_t>(i[0]);
    d.large_counts = span(1, 1 + 3 * ndims);
    i = {i.front(), i.back()};
  } else if (t.combiner() == dt::Combiner::Darray) {
    // i = {size, rank, ndims, distribs, dargs, psizes, order}, c = {gsizes}
    const std::size_t ndims = static_cast<std::size_t>(i[2]);
    d.large_counts = span(3, 3 + ndims);
    i.erase(i.begin() + 3, i.begin() + 3 + static_cast<std::ptrdiff_t>(ndims));
  } else {
    // The integers then the addresses, in the order of the table.
    d.large_counts = std::move(i);
    d.large_counts.insert(d.large_counts.end(), d.addresses.begin(), d.addresses.end());
    i.clear();
    d.addresses.clear();
  }
  return d;
}

// The decoded arguments of a live handle's type; predefined types have none
// (combiner MPI_COMBINER_NAMED). `large`: for a _c procedure; the int
// procedures raise MPI_ERR_TYPE on types with large counts (MPI-4.1 §5.1.13).
int decoded_type(const Binding& b, MPI_Datatype datatype, bool large, dt::DatatypePtr& t, Decoded& d)
{
  if (int err = b.check_initialized())
    return err;
  if (int err = resolve_type(b, datatype, t))
    return err;
  d = decode(*t);
  if (!large && !d.large_counts.empty())
    return b.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   std::string("the datatype was built by a large-count constructor: use ") + b.call() + "_c");
  return MPI_SUCCESS;
}

// MPI_Type_get_envelope(_c); Count is int or MPI_Count.
template <class Count>
int get_envelope(const char* call, bool large, MPI_Datatype datatype, Count* num_integers, Count* num_addresses,
                 Count* num_large_counts, Count* num_datatypes, int* combiner)
{
  Binding b(call);
  dt::DatatypePtr t;
  Decoded d;
  if (int err = decoded_type(b, datatype, large, t, d))
    return err;
  if (!num_integers || !num_addresses || (large && !num_large_counts) || !num_datatypes || !combiner)
    return null_arg(b, "an output argument");
  *num_integers = static_cast<Count>(d.integers.size());
  *num_addresses = static_cast<Count>(d.addresses.size());
  if (large)
    *num_large_counts = static_cast<Count>(d.large_counts.size());
  *num_datatypes = static_cast<Count>(d.datatypes->size());
  *combiner = t->is_predefined() ? MPI_COMBINER_NAMED : mpi_combiner(t->combiner());
  return MPI_SUCCESS;
}

// MPI_Type_get_contents(_c); Count is int or MPI_Count.
template <class Count>
int get_contents(const char* call, bool large, MPI_Datatype datatype, Count max_integers, Count max_addresses,
                 Count max_large_counts, Count max_datatypes, int array_of_integers[], MPI_Aint array_of_addresses[],
                 MPI_Count array_of_large_counts[], MPI_Datatype array_of_datatypes[])
{
  Binding b(call);
  dt::DatatypePtr t;
  Decoded d;
  if (int err = decoded_type(b, datatype, large, t, d))
    return err;
  if (t->is_predefined())
    return b.error(MPI_COMM_WORLD, MPI_ERR_TYPE,
                   std::string("the predefined datatype ") + t->name() + " has no contents (combiner MPI_COMBINER_NAMED)");
  auto too_small = [&](const char* what, Count max, std::size_t need) {
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   std::string(what) + " = " + std::to_string(max) + " is smaller than the " + std::to_string(need) +
                       " given by " + (large ? "MPI_Type_get_envelope_c" : "MPI_Type_get_envelope"));
  };
  auto fits = [](Count max, std::size_t need) { return max >= 0 && static_cast<std::size_t>(max) >= need; };
  if (!fits(max_integers, d.integers.size()))
    return too_small("max_integers", max_integers, d.integers.size());
  if (!fits(max_addresses, d.addresses.size()))
    return too_small("max_addresses", max_addresses, d.addresses.size());
  if (large && !fits(max_large_counts, d.large_counts.size()))
    return too_small("max_large_counts", max_large_counts, d.large_counts.size());
  if (!fits(max_datatypes, d.datatypes->size()))
    return too_small("max_datatypes", max_datatypes, d.datatypes->size());
  if ((!d.integers.empty() && !array_of_integers) || (!d.addresses.empty() && !array_of_addresses) ||
      (!d.large_counts.empty() && !array_of_large_counts) || (!d.datatypes->empty() && !array_of_datatypes))
    return null_arg(b, "an output array");

  for (std::size_t i = 0; i < d.integers.size(); ++i)
    array_of_integers[i] = static_cast<int>(d.integers[i]);
  for (std::size_t i = 0; i < d.addresses.size(); ++i)
    array_of_addresses[i] = static_cast<MPI_Aint>(d.addresses[i]);
  for (std::size_t i = 0; i < d.large_counts.size(); ++i)
    array_of_large_counts[i] = static_cast<MPI_Count>(d.large_counts[i]);
  for (std::size_t i = 0; i < d.datatypes->size(); ++i)
    array_of_datatypes[i] = constituent_handle(b, (*d.datatypes)[i]);
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Type_contiguous(int count, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return contiguous("MPI_Type_contiguous", false, count, oldtype, newtype);
}

int PMPI_Type_contiguous_c(MPI_Count count, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return contiguous("MPI_Type_contiguous_c", true, count, oldtype, newtype);
}

int PMPI_Type_vector(int count, int blocklength, int stride, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return vector("MPI_Type_vector", false, count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_vector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                       MPI_Datatype* newtype)
{
  return vector("MPI_Type_vector_c", true, count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_create_hvector(int count, int blocklength, MPI_Aint stride, MPI_Datatype oldtype,
                             MPI_Datatype* newtype)
{
  return hvector("MPI_Type_create_hvector", false, count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_create_hvector_c(MPI_Count count, MPI_Count blocklength, MPI_Count stride, MPI_Datatype oldtype,
                               MPI_Datatype* newtype)
{
  return hvector("MPI_Type_create_hvector_c", true, count, blocklength, stride, oldtype, newtype);
}

int PMPI_Type_indexed(int count, const int array_of_blocklengths[], const int array_of_displacements[],
                      MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return indexed("MPI_Type_indexed", false, count, array_of_blocklengths, array_of_displacements, oldtype, newtype);
}

int PMPI_Type_indexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                        const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return indexed("MPI_Type_indexed_c", true, count, array_of_blocklengths, array_of_displacements, oldtype, newtype);
}

int PMPI_Type_create_hindexed(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                              MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return hindexed("MPI_Type_create_hindexed", false, count, array_of_blocklengths, array_of_displacements, oldtype,
                  newtype);
}

int PMPI_Type_create_hindexed_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                                const MPI_Count array_of_displacements[], MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return hindexed("MPI_Type_create_hindexed_c", true, count, array_of_blocklengths, array_of_displacements, oldtype,
                  newtype);
}

int PMPI_Type_create_indexed_block(int count, int blocklength, const int array_of_displacements[],
                                   MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return indexed_block("MPI_Type_create_indexed_block", false, count, blocklength, array_of_displacements, oldtype,
                       newtype);
}

int PMPI_Type_create_indexed_block_c(MPI_Count count, MPI_Count blocklength, const MPI_Count array_of_displacements[],
                                     MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return indexed_block("MPI_Type_create_indexed_block_c", true, count, blocklength, array_of_displacements, oldtype,
                       newtype);
}

int PMPI_Type_create_hindexed_block(int count, int blocklength, const MPI_Aint array_of_displacements[],
                                    MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return hindexed_block("MPI_Type_create_hindexed_block", false, count, blocklength, array_of_displacements, oldtype,
                        newtype);
}

int PMPI_Type_create_hindexed_block_c(MPI_Count count, MPI_Count blocklength,
                                      const MPI_Count array_of_displacements[], MPI_Datatype oldtype,
                                      MPI_Datatype* newtype)
{
  return hindexed_block("MPI_Type_create_hindexed_block_c", true, count, blocklength, array_of_displacements,
                        oldtype, newtype);
}

int PMPI_Type_create_struct(int count, const int array_of_blocklengths[], const MPI_Aint array_of_displacements[],
                            const MPI_Datatype array_of_types[], MPI_Datatype* newtype)
{
  return struct_type("MPI_Type_create_struct", false, count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype);
}

int PMPI_Type_create_struct_c(MPI_Count count, const MPI_Count array_of_blocklengths[],
                              const MPI_Count array_of_displacements[], const MPI_Datatype array_of_types[],
                              MPI_Datatype* newtype)
{
  return struct_type("MPI_Type_create_struct_c", true, count, array_of_blocklengths, array_of_displacements,
                     array_of_types, newtype);
}

int PMPI_Type_create_subarray(int ndims, const int array_of_sizes[], const int array_of_subsizes[],
                              const int array_of_starts[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return subarray("MPI_Type_create_subarray", false, ndims, array_of_sizes, array_of_subsizes, array_of_starts, order,
                  oldtype, newtype);
}

int PMPI_Type_create_subarray_c(int ndims, const MPI_Count array_of_sizes[], const MPI_Count array_of_subsizes[],
                                const MPI_Count array_of_starts[], int order, MPI_Datatype oldtype,
                                MPI_Datatype* newtype)
{
  return subarray("MPI_Type_create_subarray_c", true, ndims, array_of_sizes, array_of_subsizes, array_of_starts,
                  order, oldtype, newtype);
}

int PMPI_Type_create_darray(int size, int rank, int ndims, const int array_of_gsizes[],
                            const int array_of_distribs[], const int array_of_dargs[], const int array_of_psizes[],
                            int order, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return darray("MPI_Type_create_darray", false, size, rank, ndims, array_of_gsizes, array_of_distribs,
                array_of_dargs, array_of_psizes, order, oldtype, newtype);
}

int PMPI_Type_create_darray_c(int size, int rank, int ndims, const MPI_Count array_of_gsizes[],
                              const int array_of_distribs[], const int array_of_dargs[],
                              const int array_of_psizes[], int order, MPI_Datatype oldtype, MPI_Datatype* newtype)
{
  return darray("MPI_Type_create_darray_c", true, size, rank, ndims, array_of_gsizes, array_of_distribs,
                array_of_dargs, array_of_psizes, order, oldtype, newtype);
}

int PMPI_Type_create_resized(MPI_Datatype oldtype, MPI_Aint lb, MPI_Aint extent, MPI_Datatype* newtype)
{
  return resized("MPI_Type_create_resized", false, oldtype, lb, extent, newtype);
}

int PMPI_Type_create_resized_c(MPI_Datatype oldtype, MPI_Count lb, MPI_Count extent, MPI_Datatype* newtype)
{
  return resized("MPI_Type_create_resized_c", true, oldtype, lb, extent, newtype);
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
  return get_envelope<int>("MPI_Type_get_envelope", false, datatype, num_integers, num_addresses, nullptr,
                           num_datatypes, combiner);
}

int PMPI_Type_get_envelope_c(MPI_Datatype datatype, MPI_Count* num_integers, MPI_Count* num_addresses,
                             MPI_Count* num_large_counts, MPI_Count* num_datatypes, int* combiner)
{
  return get_envelope<MPI_Count>("MPI_Type_get_envelope_c", true, datatype, num_integers, num_addresses,
                                 num_large_counts, num_datatypes, combiner);
}

int PMPI_Type_get_contents(MPI_Datatype datatype, int max_integers, int max_addresses, int max_datatypes,
                           int array_of_integers[], MPI_Aint array_of_addresses[], MPI_Datatype array_of_datatypes[])
{
  return get_contents<int>("MPI_Type_get_contents", false, datatype, max_integers, max_addresses, 0, max_datatypes,
                           array_of_integers, array_of_addresses, nullptr, array_of_datatypes);
}

int PMPI_Type_get_contents_c(MPI_Datatype datatype, MPI_Count max_integers, MPI_Count max_addresses,
                             MPI_Count max_large_counts, MPI_Count max_datatypes, int array_of_integers[],
                             MPI_Aint array_of_addresses[], MPI_Count array_of_large_counts[],
                             MPI_Datatype array_of_datatypes[])
{
  return get_contents<MPI_Count>("MPI_Type_get_contents_c", true, datatype, max_integers, max_addresses,
                                 max_large_counts, max_datatypes, array_of_integers, array_of_addresses,
                                 array_of_large_counts, array_of_datatypes);
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
PROGSIM_MPI_ALIAS(MPI_Type_contiguous_c)
PROGSIM_MPI_ALIAS(MPI_Type_vector)
PROGSIM_MPI_ALIAS(MPI_Type_vector_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_hvector)
PROGSIM_MPI_ALIAS(MPI_Type_create_hvector_c)
PROGSIM_MPI_ALIAS(MPI_Type_indexed)
PROGSIM_MPI_ALIAS(MPI_Type_indexed_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_hindexed)
PROGSIM_MPI_ALIAS(MPI_Type_create_hindexed_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_indexed_block)
PROGSIM_MPI_ALIAS(MPI_Type_create_indexed_block_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_hindexed_block)
PROGSIM_MPI_ALIAS(MPI_Type_create_hindexed_block_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_struct)
PROGSIM_MPI_ALIAS(MPI_Type_create_struct_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_subarray)
PROGSIM_MPI_ALIAS(MPI_Type_create_subarray_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_darray)
PROGSIM_MPI_ALIAS(MPI_Type_create_darray_c)
PROGSIM_MPI_ALIAS(MPI_Type_create_resized)
PROGSIM_MPI_ALIAS(MPI_Type_create_resized_c)
PROGSIM_MPI_ALIAS(MPI_Type_dup)
PROGSIM_MPI_ALIAS(MPI_Type_commit)
PROGSIM_MPI_ALIAS(MPI_Type_free)
PROGSIM_MPI_ALIAS(MPI_Type_get_envelope)
PROGSIM_MPI_ALIAS(MPI_Type_get_envelope_c)
PROGSIM_MPI_ALIAS(MPI_Type_get_contents)
PROGSIM_MPI_ALIAS(MPI_Type_get_contents_c)
PROGSIM_MPI_ALIAS(MPI_Type_get_value_index)

PROGSIM_MPI1_ALIAS(Type_hvector, Type_create_hvector)
PROGSIM_MPI1_ALIAS(Type_hindexed, Type_create_hindexed)
PROGSIM_MPI1_ALIAS(Type_struct, Type_create_struct)
