#include "datatype/PrimitiveType.hpp"

#include <stdint.h>  // the .def names int8_t, intptr_t, ... unqualified

#include <array>
#include <complex>
#include <cstddef>
#include <limits>
#include <type_traits>

#include "datatype/DatatypeError.hpp"
#include "datatype/PairTypes.hpp"

namespace progsim::dt {
namespace {

// Detects the {value, index} structs of PairTypes.hpp.
template <class T, class = void>
struct PairLayout {
    static constexpr std::int64_t value_size = sizeof(T);
    static constexpr std::int64_t index_offset = 0;
    static constexpr std::int64_t index_size = 0;
};
template <class T>
struct PairLayout<T, std::void_t<decltype(std::declval<T&>().index)>> {
    static constexpr std::int64_t value_size = sizeof(T::value);
    static constexpr std::int64_t index_offset = offsetof(T, index);
    static constexpr std::int64_t index_size = sizeof(T::index);
};

// The basic element types of the pair types (MPI-4.1 §6.9.4).
constexpr PrimitiveId pair_value(PrimitiveId id) {
    switch (id) {
        case PrimitiveId::kFLOAT_INT: return PrimitiveId::kFLOAT;
        case PrimitiveId::kDOUBLE_INT: return PrimitiveId::kDOUBLE;
        case PrimitiveId::kLONG_INT: return PrimitiveId::kLONG;
        case PrimitiveId::k2INT: return PrimitiveId::kINT;
        case PrimitiveId::kSHORT_INT: return PrimitiveId::kSHORT;
        case PrimitiveId::kLONG_DOUBLE_INT: return PrimitiveId::kLONG_DOUBLE;
        case PrimitiveId::k2INTEGER: return PrimitiveId::kINTEGER;
        case PrimitiveId::k2REAL: return PrimitiveId::kREAL;
        case PrimitiveId::k2DOUBLE_PRECISION: return PrimitiveId::kDOUBLE_PRECISION;
        default: return id;
    }
}
constexpr PrimitiveId pair_index(PrimitiveId id) {
    switch (id) {
        case PrimitiveId::kFLOAT_INT:
        case PrimitiveId::kDOUBLE_INT:
        case PrimitiveId::kLONG_INT:
        case PrimitiveId::k2INT:
        case PrimitiveId::kSHORT_INT:
        case PrimitiveId::kLONG_DOUBLE_INT: return PrimitiveId::kINT;
        default: return pair_value(id);
    }
}

// external32 sizes of the non-pair types (MPI-4.1 §13.5.2, Table 13.2; the
// values MPICH uses: MPI_LONG and MPI_WCHAR are 4 and 2 bytes).
constexpr std::int64_t external32_basic(PrimitiveId id, std::int64_t native) {
    switch (id) {
        case PrimitiveId::kWCHAR: return 2;
        case PrimitiveId::kLONG:
        case PrimitiveId::kUNSIGNED_LONG: return 4;
        case PrimitiveId::kAINT:
        case PrimitiveId::kCOUNT:
        case PrimitiveId::kOFFSET: return 8;
        case PrimitiveId::kLONG_DOUBLE:
        case PrimitiveId::kREAL16: return 16;
        case PrimitiveId::kC_LONG_DOUBLE_COMPLEX:
        case PrimitiveId::kCXX_LONG_DOUBLE_COMPLEX:
        case PrimitiveId::kCOMPLEX32: return 32;
        case PrimitiveId::kC_BOOL:
        case PrimitiveId::kCXX_BOOL: return 1;
        default: return native;
    }
}

template <class T>
constexpr PrimitiveInfo make_info(PrimitiveId id, const char* name, TypeClass cls) {
    using L = PairLayout<T>;
    const bool pair = cls == TypeClass::Pair;
    PrimitiveInfo info{};
    info.id = id;
    info.name = name;
    info.type_class = cls;
    info.size = L::value_size + L::index_size;
    info.extent = sizeof(T);
    info.alignment = alignof(T);
    info.elements = pair ? 2 : 1;
    info.value_id = pair_value(id);
    info.index_id = pair_index(id);
    info.value_size = L::value_size;
    info.index_offset = L::index_offset;
    info.external32_size = 0;  // filled in by the table builder below
    return info;
}

struct Table {
    std::array<PrimitiveInfo, kMaxPrimitiveIndex + 1> info{};
    std::array<bool, kMaxPrimitiveIndex + 1> valid{};
};

// One distinct address per C type: equal storage types compare equal.
template <class T>
void storage_type_tag() {}

Table build_table() {
    Table t;
    std::array<void (*)(), kMaxPrimitiveIndex + 1> storage{};
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS)                                            \
    t.info[INDEX] = make_info<CTYPE>(PrimitiveId::k##NAME, "MPI_" #NAME, TypeClass::CLASS); \
    t.valid[INDEX] = true;                                                                 \
    storage[INDEX] = &storage_type_tag<CTYPE>;
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
    for (int i = 1; i <= kMaxPrimitiveIndex; ++i) {
        PrimitiveInfo& info = t.info[i];
        info.matching_id = info.id;
        if (!t.valid[i] || info.type_class == TypeClass::Byte || info.type_class == TypeClass::Packed) continue;
        for (int j = 1; j < i; ++j)
            if (t.valid[j] && storage[j] == storage[i] && t.info[j].type_class != TypeClass::Byte &&
                t.info[j].type_class != TypeClass::Packed) {
                info.matching_id = t.info[j].id;
                break;
            }
    }
    // external32 sizes need the components of the pairs, so a second pass.
    for (auto& i : t.info) {
        if (i.id == PrimitiveId::kNone) continue;
        if (i.type_class == TypeClass::Pair) {
            const auto& v = t.info[static_cast<int>(i.value_id)];
            const auto& x = t.info[static_cast<int>(i.index_id)];
            i.external32_size = external32_basic(v.id, v.size) + external32_basic(x.id, x.size);
        } else {
            i.external32_size = external32_basic(i.id, i.size);
        }
    }
    return t;
}

const Table& table() {
    static const Table t = build_table();
    return t;
}

}  // namespace

std::optional<PrimitiveId> primitive_from_index(int index) noexcept {
    if (index <= 0 || index > kMaxPrimitiveIndex || !table().valid[index]) return std::nullopt;
    return static_cast<PrimitiveId>(index);
}

const PrimitiveInfo& primitive_info(PrimitiveId id) {
    const int index = static_cast<int>(id);
    if (index <= 0 || index > kMaxPrimitiveIndex || !table().valid[index])
        throw DatatypeError(ErrorClass::Type, "not a predefined datatype index: " + std::to_string(index));
    return table().info[index];
}

}  // namespace progsim::dt
