// Typed traversal of user buffers, for reductions and RMA accumulate
// (MPI-4.1 §6.9, §12.3.4): the elements of `count` items of a datatype as
// runs of one predefined type each, in typemap order.
//
// A run is (ptr, id, n): n elements of the predefined type `id` at ptr,
// ptr + e, ptr + 2e, ... with e = primitive_info(id).extent = sizeof(CTYPE),
// which is the layout ops::apply(op, index, in, inout, n) expects. Pair types
// (MPI_DOUBLE_INT, ...) come as runs of the pair id, each element a
// {value, index} struct of PairTypes.hpp. Runs of consecutive items are
// merged when the items are back to back, so 1e8 MPI_INTs are one run.
// A negative count throws DatatypeError(ErrorClass::Count).
#pragma once

#include <cstdint>
#include <string>

#include "datatype/Datatype.hpp"
#include "datatype/DatatypeError.hpp"
#include "datatype/LayoutWalk.hpp"

namespace progsim::dt {

namespace detail {
inline void check_visit_count(std::int64_t count) {
    if (count < 0) throw DatatypeError(ErrorClass::Count, "negative count: " + std::to_string(count));
}
}  // namespace detail

// fn(void* ptr, PrimitiveId id, std::int64_t n)
template <class F>
void for_each_primitive_run(void* base, std::int64_t count, const Datatype& type, F&& fn) {
    detail::check_visit_count(count);
    detail::walk_message_typed(type, detail::addr_of(base), count,
                               [&fn](detail::Addr a, PrimitiveId id, std::int64_t n, std::int64_t) {
                                   fn(static_cast<void*>(detail::ptr(a)), id, n);
                               });
}

// fn(const void* ptr, PrimitiveId id, std::int64_t n)
template <class F>
void for_each_primitive_run(const void* base, std::int64_t count, const Datatype& type, F&& fn) {
    detail::check_visit_count(count);
    detail::walk_message_typed(type, detail::addr_of(base), count,
                               [&fn](detail::Addr a, PrimitiveId id, std::int64_t n, std::int64_t) {
                                   fn(static_cast<const void*>(detail::ptr(a)), id, n);
                               });
}

// Offsets instead of pointers, to walk several buffers of the same layout at
// once (reduce: in and inout) or a buffer and its packed stream (accumulate
// from a packed origin):
// fn(std::int64_t mem_offset, std::int64_t packed_offset, PrimitiveId id, std::int64_t n)
// mem_offset is relative to the buffer base (may be negative); packed_offset
// is where the run's data starts in the packed stream (its n elements are
// n * primitive_info(id).size bytes there, without pair padding).
template <class F>
void for_each_primitive_run_offset(std::int64_t count, const Datatype& type, F&& fn) {
    detail::check_visit_count(count);
    detail::walk_message_typed(type, detail::Addr{0}, count,
                               [&fn](detail::Addr a, PrimitiveId id, std::int64_t n, std::int64_t packed) {
                                   fn(static_cast<std::int64_t>(a), packed, id, n);
                               });
}

}  // namespace progsim::dt
