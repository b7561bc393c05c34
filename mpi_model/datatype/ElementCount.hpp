// MPI_Get_count and MPI_Get_elements (MPI-4.1 §3.2.5, §5.1.11) for a
// number of received bytes.
#pragma once

#include <cstdint>
#include <optional>

#include "datatype/Datatype.hpp"

namespace progsim::dt {

// MPI_Get_count: whole items in `bytes` bytes, or nullopt (MPI_UNDEFINED)
// if bytes is not a multiple of the size. A type of size 0 gives 0.
std::optional<std::int64_t> count_items(const Datatype& type, std::int64_t bytes);

// MPI_Get_elements: basic elements in the first `bytes` bytes of the packed
// stream of items of `type` (the items repeat as far as needed). Elements are
// counted if complete; a trailing partial element is not counted (see
// ends_inside_element). Pair types count as two elements, the value and the
// index (as MPICH, e.g. its test get-elements-pairtype). Size-0 types give 0.
std::int64_t count_elements(const Datatype& type, std::int64_t bytes);

// True if the first `bytes` bytes end in the middle of a basic element,
// which happens only when the sent and received signatures differ
// (MPICH returns MPI_UNDEFINED from MPI_Get_elements then).
bool ends_inside_element(const Datatype& type, std::int64_t bytes);

}  // namespace progsim::dt
