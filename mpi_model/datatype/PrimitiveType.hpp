// The predefined MPI datatypes (MPI-4.1 §3.2.2, §6.9.4), generated from
// PredefinedTypes.def. A PrimitiveId's value is the handle index of the type:
// MPI_Datatype handle = 0x4c000000 | static_cast<int>(id).
#pragma once

#include <cstdint>
#include <optional>

namespace progsim::dt {

enum class PrimitiveId : std::uint8_t {
    kNone = 0,  // not a predefined type (MPI_DATATYPE_NULL's index)
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS) k##NAME = INDEX,
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
};

// Which reduction operations apply (MPI-4.1 §6.9.2); the CLASS column of the .def.
enum class TypeClass : std::uint8_t {
    SignedInt,
    UnsignedInt,
    Float,
    Complex,
    Logical,
    Byte,
    Char,
    Pair,
    Packed
};

struct PrimitiveInfo {
    PrimitiveId id;
    const char* name;         // "MPI_INT"
    TypeClass type_class;
    std::int64_t size;        // MPI_Type_size: data bytes (pairs: value + index, no padding)
    std::int64_t extent;      // sizeof(CTYPE): the distance between consecutive elements
    std::int64_t alignment;   // alignof(CTYPE), used for the struct epsilon (§5.1.6)
    std::int64_t elements;    // basic elements (MPI_Get_elements units): 1, or 2 for pairs
    // Pair types (§6.9.4) are {value, index} structs: the types of both basic
    // elements, the value's byte count and the index's offset. For non-pairs
    // value_id == index_id == id, value_size == size and index_offset == 0.
    PrimitiveId value_id;
    PrimitiveId index_id;
    std::int64_t value_size;
    std::int64_t index_offset;
    std::int64_t external32_size;  // bytes in the "external32" representation (§13.5.2)
    // The type it is taken for in type matching (MPI-4.1 §3.3.1): the first
    // predefined type with the same C storage type. MPI_INT32_T, MPI_INTEGER
    // and MPI_INT name one C type here (int), so whether they match is left
    // open by the standard's "corresponds to the basic type of the host
    // program variable"; progsim does not flag them. MPI_CHAR (char) and
    // MPI_SIGNED_CHAR (signed char) stay apart. MPI_BYTE and MPI_PACKED:
    // themselves (they match anything, TypeSignature.hpp).
    PrimitiveId matching_id;
};

// Largest handle index used by a predefined type.
inline constexpr int kMaxPrimitiveIndex = [] {
    int max = 0;
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS) max = (INDEX) > max ? (INDEX) : max;
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
    return max;
}();

// The id for a handle index, or nullopt if no predefined type has that index.
std::optional<PrimitiveId> primitive_from_index(int index) noexcept;

// Throws DatatypeError(ErrorClass::Type) for kNone or an unknown id.
const PrimitiveInfo& primitive_info(PrimitiveId id);

inline int primitive_index(PrimitiveId id) noexcept { return static_cast<int>(id); }

}  // namespace progsim::dt
