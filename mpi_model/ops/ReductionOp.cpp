// MPI reduction operations engine; see ReductionOp.hpp for the semantics.
//
// Structure: one row per predefined datatype, generated from the X-macro in
// datatype/PredefinedTypes.def. Each row holds a kernel pointer per operation,
// instantiated from the templates below only where the operation applies, so
// the applicability table (applies()) and the implementation cannot disagree.

#include "ops/ReductionOp.hpp"

#include <stdint.h>  // the .def names int8_t, intptr_t, ... unqualified

#include <array>
#include <cfloat>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>

#include "datatype/PairTypes.hpp"

namespace progsim::ops {
namespace {

using uchar = unsigned char;
using Kernel = void (*)(const uchar* in, uchar* inout, std::size_t count);

// ---------------------------------------------------------------------------
// Classification.

// The reduction classes spelled in PredefinedTypes.def.
enum class Cls { SignedInt, UnsignedInt, Float, Complex, Logical, Byte, Char, Pair, Packed };

// The type groups of MPI-4.1 §6.9.2, which are finer than the .def classes:
// the .def puts Fortran integers and MPI_AINT/COUNT/OFFSET in SignedInt, but
// the standard does not allow the logical operations on them.
enum class Kind {
    CInteger,  // C integer (and MPI_CHAR, see kind_of)
    OtherInteger,  // Fortran integer and the multi-language types AINT/COUNT/OFFSET
    Floating,
    Complex,
    Logical,
    Byte,
    Character,  // MPI_WCHAR, MPI_CHARACTER: REPLACE/NO_OP only
    Pair,
    Packed
};

// Fortran integers take no logical operations (§6.9.2). The multi-language
// types MPI_AINT, MPI_OFFSET and MPI_COUNT count as C integers here, as in
// MPICH, whose coll/allred test reduces them with MPI_LAND/LOR/LXOR.
constexpr bool is_fortran_or_multilanguage_integer(std::string_view name) {
    return name.substr(0, 7) == "INTEGER";  // INTEGER, INTEGER1..INTEGER8
}

constexpr Kind kind_of(Cls cls, std::string_view name) {
    switch (cls) {
        case Cls::SignedInt:
        case Cls::UnsignedInt:
            return is_fortran_or_multilanguage_integer(name) ? Kind::OtherInteger : Kind::CInteger;
        case Cls::Char:
            // MPI_CHAR is not a C integer in §6.9.2, but MPICH accepts it
            // wherever C integers are accepted (MPIR_OP_TYPE_GROUP_C_INTEGER_EXTRA)
            // and its test suite (coll/opband.c, opmin.c, ...) relies on that,
            // so we do the same: MAX/MIN/SUM/PROD, the logical and the bitwise
            // ops all work on MPI_CHAR. MPI_SIGNED_CHAR and MPI_UNSIGNED_CHAR
            // are C integers in the standard already. MPI_WCHAR and
            // MPI_CHARACTER stay strict.
            return name == "CHAR" ? Kind::CInteger : Kind::Character;
        case Cls::Float: return Kind::Floating;
        case Cls::Complex: return Kind::Complex;
        case Cls::Logical: return Kind::Logical;
        case Cls::Byte: return Kind::Byte;
        case Cls::Pair: return Kind::Pair;
        case Cls::Packed: return Kind::Packed;
    }
    return Kind::Packed;
}

// MPI-4.1 §6.9.2 table (plus the MPI_CHAR extension above).
constexpr bool applies(Kind k, OpId op) {
    const bool integer = k == Kind::CInteger || k == Kind::OtherInteger;
    switch (op) {
        case OpId::Max:
        case OpId::Min: return integer || k == Kind::Floating;
        case OpId::Sum:
        case OpId::Prod: return integer || k == Kind::Floating || k == Kind::Complex;
        case OpId::Land:
        case OpId::Lor:
        case OpId::Lxor: return k == Kind::CInteger || k == Kind::Logical;
        case OpId::Band:
        case OpId::Bor:
        case OpId::Bxor: return integer || k == Kind::Byte;
        case OpId::Minloc:
        case OpId::Maxloc: return k == Kind::Pair;
        case OpId::Replace:
        case OpId::NoOp: return true;
    }
    return false;
}

// ---------------------------------------------------------------------------
// Element storage: unaligned loads and stores through memcpy.

// Bytes of a T that hold its value. On x86 long double is the 80-bit x87
// format in a 12- or 16-byte slot; the rest is padding that a store of a
// computed value would fill with whatever the stack held, so we skip it.
template <class T>
constexpr std::size_t value_bytes() {
#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64
    if constexpr (std::is_same_v<T, long double>) return 10;
#endif
    return sizeof(T);
}

template <class T>
struct Storage {
    static_assert(std::is_trivially_copyable_v<T>);
    static T load(const uchar* p) {
        T v;
        std::memcpy(&v, p, sizeof(T));
        return v;
    }
    static void store(uchar* p, const T& v) { std::memcpy(p, &v, value_bytes<T>()); }
};

// bool: any nonzero byte is true (loading a bool object holding 2 would be
// undefined); we always write 0 or 1.
template <>
struct Storage<bool> {
    static_assert(sizeof(bool) == 1);
    static bool load(const uchar* p) { return *p != 0; }
    static void store(uchar* p, bool v) { *p = v ? 1 : 0; }
};

// std::complex<T> is laid out as T[2] ([complex.numbers]).
template <class T>
struct Storage<std::complex<T>> {
    static_assert(sizeof(std::complex<T>) == 2 * sizeof(T));
    static std::complex<T> load(const uchar* p) {
        return {Storage<T>::load(p), Storage<T>::load(p + sizeof(T))};
    }
    static void store(uchar* p, const std::complex<T>& v) {
        Storage<T>::store(p, v.real());
        Storage<T>::store(p + sizeof(T), v.imag());
    }
};

// Pair types: only the two fields, never the struct padding.
template <class P>
struct PairStorage {
    using Value = decltype(P::value);
    using Index = decltype(P::index);
    static P load(const uchar* p) {
        P r{};
        r.value = Storage<Value>::load(p + offsetof(P, value));
        r.index = Storage<Index>::load(p + offsetof(P, index));
        return r;
    }
    static void store(uchar* p, const P& r) {
        Storage<Value>::store(p + offsetof(P, value), r.value);
        Storage<Index>::store(p + offsetof(P, index), r.index);
    }
};

// ---------------------------------------------------------------------------
// The operations. a = in[i], b = inout[i]; the result goes to inout[i].

// Unsigned type in which integer arithmetic on T wraps without UB: at least
// `unsigned`, so that e.g. unsigned short * unsigned short is not promoted to
// (overflowing) int.
template <class T>
using Wide = std::conditional_t<(sizeof(T) < sizeof(unsigned)), unsigned, std::make_unsigned_t<T>>;

template <class T>
constexpr bool truth(const T& v) {
    if constexpr (std::is_same_v<T, bool>) return v;
    else return v != T(0);
}

template <class T, OpId Op>
T combine(const T& a, const T& b) {
    if constexpr (Op == OpId::Max) {
        return b > a ? b : a;  // MPICH's MPL_MAX(inout, in)
    } else if constexpr (Op == OpId::Min) {
        return b < a ? b : a;
    } else if constexpr (Op == OpId::Sum) {
        if constexpr (std::is_integral_v<T>) return static_cast<T>(Wide<T>(a) + Wide<T>(b));
        else return a + b;
    } else if constexpr (Op == OpId::Prod) {
        if constexpr (std::is_integral_v<T>) return static_cast<T>(Wide<T>(a) * Wide<T>(b));
        else return a * b;
    } else if constexpr (Op == OpId::Land) {
        return static_cast<T>(truth(a) && truth(b) ? 1 : 0);
    } else if constexpr (Op == OpId::Lor) {
        return static_cast<T>(truth(a) || truth(b) ? 1 : 0);
    } else if constexpr (Op == OpId::Lxor) {
        return static_cast<T>(truth(a) != truth(b) ? 1 : 0);
    } else if constexpr (Op == OpId::Band) {
        return static_cast<T>(Wide<T>(a) & Wide<T>(b));
    } else if constexpr (Op == OpId::Bor) {
        return static_cast<T>(Wide<T>(a) | Wide<T>(b));
    } else if constexpr (Op == OpId::Bxor) {
        return static_cast<T>(Wide<T>(a) ^ Wide<T>(b));
    } else if constexpr (Op == OpId::Minloc || Op == OpId::Maxloc) {
        // As MPICH: take `in` if it is strictly better, on a tie keep the
        // smaller index, otherwise (including NaN) keep inout.
        const bool better = Op == OpId::Minloc ? b.value > a.value : b.value < a.value;
        if (better) return a;
        T r = b;
        if (b.value == a.value && a.index < b.index) r.index = a.index;
        return r;
    } else {
        static_assert(Op == OpId::Max, "no element-wise kernel for this op");
    }
}

template <class T, Kind K, OpId Op>
void kernel(const uchar* in, uchar* inout, std::size_t count) {
    using S = std::conditional_t<K == Kind::Pair, PairStorage<T>, Storage<T>>;
    for (std::size_t i = 0; i < count; ++i) {
        const std::size_t off = i * sizeof(T);
        // Both loads happen before the store, so in == inout is fine.
        const T a = S::load(in + off);
        const T b = S::load(inout + off);
        S::store(inout + off, combine<T, Op>(a, b));
    }
}

// ---------------------------------------------------------------------------
// The per-datatype table.

struct Row {
    const char* name = nullptr;  // nullptr: no predefined type has this index
    std::size_t size = 0;
    Kind kind = Kind::Packed;
    // kernels[op]: element-wise kernel, nullptr if op does not apply.
    // REPLACE and NO_OP are type-independent and have none.
    Kernel kernels[kNumPredefinedOps + 1] = {};
};

template <class T, Kind K, OpId Op>
constexpr Kernel kernel_for() {
    if constexpr (Op != OpId::Replace && Op != OpId::NoOp && applies(K, Op)) return &kernel<T, K, Op>;
    else return nullptr;
}

template <class T, Kind K, std::size_t... I>
constexpr Row make_row(const char* name, std::index_sequence<I...>) {
    Row r;
    r.name = name;
    r.size = sizeof(T);
    r.kind = K;
    ((r.kernels[I + 1] = kernel_for<T, K, static_cast<OpId>(I + 1)>()), ...);
    return r;
}

constexpr int kMaxTypeIndex = [] {
    int m = 0;
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS) m = (INDEX) > m ? (INDEX) : m;
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
    return m;
}();

using Table = std::array<Row, kMaxTypeIndex + 1>;

constexpr Table make_table() {
    Table t{};
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS)                                               \
    if (t[INDEX].name != nullptr) throw "duplicate datatype index in PredefinedTypes.def";     \
    t[INDEX] = make_row<CTYPE, kind_of(Cls::CLASS, #NAME)>(                                   \
        "MPI_" #NAME, std::make_index_sequence<kNumPredefinedOps>{});
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
    return t;
}

constexpr Table kTable = make_table();

const Row* row_of(int primitive_index) {
    if (primitive_index <= 0 || primitive_index > kMaxTypeIndex) return nullptr;
    const Row& r = kTable[static_cast<std::size_t>(primitive_index)];
    return r.name ? &r : nullptr;
}

bool valid_op(OpId op) {
    const int v = static_cast<int>(op);
    return v >= 1 && v <= kNumPredefinedOps;
}

}  // namespace

bool op_applies(OpId op, int primitive_index) noexcept {
    const Row* row = row_of(primitive_index);
    return row && valid_op(op) && applies(row->kind, op);
}

void apply(OpId op, int primitive_index, const void* in, void* inout, std::int64_t count) {
    if (!op_applies(op, primitive_index)) {
        const Row* row = row_of(primitive_index);
        throw std::invalid_argument(std::string(op_name(op)) + " is not defined for " +
                                    (row ? std::string(row->name)
                                         : "datatype index " + std::to_string(primitive_index)));
    }
    if (count < 0) throw std::invalid_argument("reduction count is negative: " + std::to_string(count));
    if (count == 0 || op == OpId::NoOp) return;

    const Row& row = *row_of(primitive_index);
    const auto n = static_cast<std::uint64_t>(count);
    if (n > SIZE_MAX / row.size) throw std::invalid_argument("reduction count too large");
    const auto* src = static_cast<const uchar*>(in);
    auto* dst = static_cast<uchar*>(inout);
    if (op == OpId::Replace) {
        std::memmove(dst, src, static_cast<std::size_t>(n) * row.size);
        return;
    }
    row.kernels[static_cast<int>(op)](src, dst, static_cast<std::size_t>(n));
}

const char* op_name(OpId op) noexcept {
    switch (op) {
        case OpId::Max: return "MPI_MAX";
        case OpId::Min: return "MPI_MIN";
        case OpId::Sum: return "MPI_SUM";
        case OpId::Prod: return "MPI_PROD";
        case OpId::Land: return "MPI_LAND";
        case OpId::Band: return "MPI_BAND";
        case OpId::Lor: return "MPI_LOR";
        case OpId::Bor: return "MPI_BOR";
        case OpId::Lxor: return "MPI_LXOR";
        case OpId::Bxor: return "MPI_BXOR";
        case OpId::Minloc: return "MPI_MINLOC";
        case OpId::Maxloc: return "MPI_MAXLOC";
        case OpId::Replace: return "MPI_REPLACE";
        case OpId::NoOp: return "MPI_NO_OP";
    }
    return static_cast<int>(op) == 0 ? "MPI_OP_NULL" : "(invalid MPI_Op)";
}

void apply_user(const UserOp& op, const void* in, void* inout, int count, int datatype_handle) {
    if (op.c_fn == nullptr) throw std::invalid_argument("apply_user: UserOp without a function");
    if (count < 0) throw std::invalid_argument("apply_user: negative count");
    int len = count;
    int type = datatype_handle;
    // MPI_User_function takes a non-const invec; MPI forbids the function to
    // modify it.
    op.c_fn(const_cast<void*>(in), inout, &len, &type);
}

}  // namespace progsim::ops
