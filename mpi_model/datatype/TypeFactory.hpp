// The one place Datatype objects are assembled. Internal to the datatype
// engine; the public constructors are in TypeConstructors.hpp.
#pragma once

#include <cstdint>
#include <vector>

#include "datatype/Datatype.hpp"

namespace progsim::dt::detail {

// outer_count groups of `count` copies of `type`: copy j of group g starts at
// disp + g * outer_stride + j * stride (bytes). Every constructor of MPI-4.1
// §5.1.2 is a list of such blocks (vector: one block with both levels).
struct Block {
    const Datatype* type;
    std::int64_t disp;
    std::int64_t count;
    std::int64_t stride;
    std::int64_t outer_count = 1;
    std::int64_t outer_stride = 0;
};

struct TypeFactory {
    static DatatypePtr predefined(PrimitiveId id);
    // The typemap concatenation of the blocks. struct_padding: round the
    // extent up to the alignment (MPI-4.1 §5.1.6), unless a block carries
    // explicit bounds (§5.1.7). As MPICH does, only MPI_Type_create_struct pads.
    static DatatypePtr compose(const std::vector<Block>& blocks, bool struct_padding, Combiner combiner,
                               Contents contents);
    // Same data as `old`, bounds [lb, lb + extent), explicit (§5.1.7).
    static DatatypePtr resized(const DatatypePtr& old, std::int64_t lb, std::int64_t extent,
                               Combiner combiner, Contents contents);
    // Same type as `base` with another envelope (dup, subarray, darray).
    static DatatypePtr retag(const Datatype& base, Combiner combiner, Contents contents);

private:
    // Checks the extent and derives contiguity from the finished layout.
    static void finalize(Datatype& t);
};

}  // namespace progsim::dt::detail
