// Datatype constructors (MPI-4.1 §5.1.2-§5.1.7, §5.1.10 dup is §7.x's
// MPI_Type_dup). Each validates its arguments and throws DatatypeError:
//   ErrorClass::Count  negative count
//   ErrorClass::Type   null old type
//   ErrorClass::Arg    other invalid argument (negative blocklength, array
//                      length mismatch, bad subarray/darray arguments)
//   ErrorClass::Rank   darray rank outside [0, size)
//   ErrorClass::Other  sizes or displacements overflowing 64 bits
// Lengths, strides and displacements are in elements of the old type (its
// extent) for vector/indexed/indexed_block and in bytes for the h* forms and
// struct. Arrays are std::vector (their size is the MPI `count`); the
// pointer-and-count overloads at the end take the C arrays of the bindings
// directly, for any integer element type (int, MPI_Aint, MPI_Count).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "datatype/Datatype.hpp"
#include "datatype/DatatypeError.hpp"

namespace progsim::dt {

// The shared object of a predefined type. Throws ErrorClass::Type if `id` is
// not a predefined type.
DatatypePtr predefined(PrimitiveId id);

DatatypePtr make_contiguous(std::int64_t count, const DatatypePtr& oldtype);
DatatypePtr make_vector(std::int64_t count, std::int64_t blocklength, std::int64_t stride,
                        const DatatypePtr& oldtype);
DatatypePtr make_hvector(std::int64_t count, std::int64_t blocklength, std::int64_t stride_bytes,
                         const DatatypePtr& oldtype);
DatatypePtr make_indexed(const std::vector<std::int64_t>& blocklengths,
                         const std::vector<std::int64_t>& displacements, const DatatypePtr& oldtype);
DatatypePtr make_hindexed(const std::vector<std::int64_t>& blocklengths,
                          const std::vector<std::int64_t>& byte_displacements, const DatatypePtr& oldtype);
DatatypePtr make_indexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& displacements,
                               const DatatypePtr& oldtype);
DatatypePtr make_hindexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& byte_displacements,
                                const DatatypePtr& oldtype);
// The extent is rounded up to alignment() unless a member has explicit
// bounds (MPI-4.1 §5.1.6; struct {char; double;} has extent 16).
DatatypePtr make_struct(const std::vector<std::int64_t>& blocklengths,
                        const std::vector<std::int64_t>& byte_displacements,
                        const std::vector<DatatypePtr>& types);
// MPI-4.1 §5.1.3. lb = 0, extent = product(sizes) * extent(oldtype).
DatatypePtr make_subarray(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& subsizes,
                          const std::vector<std::int64_t>& starts, Order order, const DatatypePtr& oldtype);
// MPI-4.1 §5.1.4. dargs[i] may be kDistributeDefaultDarg. The process grid
// is row-major whatever `order` is. lb = 0, extent = product(gsizes) * extent(oldtype).
DatatypePtr make_darray(std::int64_t size, std::int64_t rank, const std::vector<std::int64_t>& gsizes,
                        const std::vector<Distribution>& distribs, const std::vector<std::int64_t>& dargs,
                        const std::vector<std::int64_t>& psizes, Order order, const DatatypePtr& oldtype);
// MPI-4.1 §5.1.7: lb and extent set explicitly (extent may be negative or 0);
// true bounds, size and data are the old type's.
DatatypePtr make_resized(const DatatypePtr& oldtype, std::int64_t lb, std::int64_t extent);
// MPI_Type_dup: the same type with combiner Dup (never predefined).
DatatypePtr make_dup(const DatatypePtr& oldtype);
// The same derived type, marked as built by the large-count ("_c") variant
// of its constructor (MPI-4.1 §5.1.13: its count arguments are then large
// counts for MPI_Type_get_envelope_c / MPI_Type_get_contents_c).
DatatypePtr with_large_counts(const DatatypePtr& type);

// ---- Pointer-and-count overloads for the C bindings --------------------------

namespace detail {
void check_count(std::int64_t count, const char* what);   // throws ErrorClass::Count if < 0
void check_array(const void* array, std::int64_t count, const char* what);  // null with count > 0: Arg
template <class T>
std::vector<std::int64_t> to_vector(std::int64_t count, const T* array, const char* what) {
    check_count(count, what);
    check_array(array, count, what);
    std::vector<std::int64_t> v(static_cast<std::size_t>(count));
    for (std::size_t i = 0; i < v.size(); ++i) v[i] = static_cast<std::int64_t>(array[i]);
    return v;
}
}  // namespace detail

template <class B, class D>
DatatypePtr make_indexed(std::int64_t count, const B* blocklengths, const D* displacements,
                         const DatatypePtr& oldtype) {
    return make_indexed(detail::to_vector(count, blocklengths, "count"),
                        detail::to_vector(count, displacements, "count"), oldtype);
}
template <class B, class D>
DatatypePtr make_hindexed(std::int64_t count, const B* blocklengths, const D* byte_displacements,
                          const DatatypePtr& oldtype) {
    return make_hindexed(detail::to_vector(count, blocklengths, "count"),
                         detail::to_vector(count, byte_displacements, "count"), oldtype);
}
template <class D>
DatatypePtr make_indexed_block(std::int64_t count, std::int64_t blocklength, const D* displacements,
                               const DatatypePtr& oldtype) {
    return make_indexed_block(blocklength, detail::to_vector(count, displacements, "count"), oldtype);
}
template <class D>
DatatypePtr make_hindexed_block(std::int64_t count, std::int64_t blocklength, const D* byte_displacements,
                                const DatatypePtr& oldtype) {
    return make_hindexed_block(blocklength, detail::to_vector(count, byte_displacements, "count"), oldtype);
}
// The binding converts the MPI_Datatype handles to `types` (types.size() == count).
template <class B, class D>
DatatypePtr make_struct(std::int64_t count, const B* blocklengths, const D* byte_displacements,
                        const std::vector<DatatypePtr>& types) {
    auto bl = detail::to_vector(count, blocklengths, "count");
    auto disp = detail::to_vector(count, byte_displacements, "count");
    return make_struct(bl, disp, types);
}
// order: the mpi.h constant; accepted if it equals an Order value.
template <class T>
DatatypePtr make_subarray(std::int64_t ndims, const T* sizes, const T* subsizes, const T* starts, int order,
                          const DatatypePtr& oldtype) {
    if (ndims <= 0) throw DatatypeError(ErrorClass::Arg, "subarray: ndims must be positive");
    return make_subarray(detail::to_vector(ndims, sizes, "ndims"), detail::to_vector(ndims, subsizes, "ndims"),
                         detail::to_vector(ndims, starts, "ndims"), static_cast<Order>(order), oldtype);
}
// distribs and order: the mpi.h constants; accepted if they equal
// Distribution / Order values.
template <class G, class P>
DatatypePtr make_darray(std::int64_t size, std::int64_t rank, std::int64_t ndims, const G* gsizes,
                        const int* distribs, const int* dargs, const P* psizes, int order,
                        const DatatypePtr& oldtype) {
    if (ndims <= 0) throw DatatypeError(ErrorClass::Arg, "darray: ndims must be positive");
    auto d = detail::to_vector(ndims, distribs, "ndims");
    std::vector<Distribution> dist(d.size());
    for (std::size_t i = 0; i < d.size(); ++i) dist[i] = static_cast<Distribution>(d[i]);
    return make_darray(size, rank, detail::to_vector(ndims, gsizes, "ndims"), dist,
                       detail::to_vector(ndims, dargs, "ndims"), detail::to_vector(ndims, psizes, "ndims"),
                       static_cast<Order>(order), oldtype);
}

}  // namespace progsim::dt
