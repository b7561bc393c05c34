// Unit tests of the reduction operations engine (mpi_model/ops).

#include "ops/ReductionOp.hpp"

#include <gtest/gtest.h>

#include <stdint.h>

#include <cfloat>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "datatype/PairTypes.hpp"

namespace {

using progsim::ops::apply;
using progsim::ops::apply_user;
using progsim::ops::kNumPredefinedOps;
using progsim::ops::op_applies;
using progsim::ops::op_name;
using progsim::ops::OpId;
using progsim::ops::UserOp;

// Datatype handle indices by name: kINT, kDOUBLE_INT, k2INT, ...
enum : int {
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS) k##NAME = INDEX,
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
};

struct TypeInfo {
    int index;
    const char* name;
    std::size_t size;
};
const TypeInfo kAllTypes[] = {
#define PROGSIM_TYPE(NAME, INDEX, CTYPE, CLASS) {INDEX, "MPI_" #NAME, sizeof(CTYPE)},
#include "datatype/PredefinedTypes.def"
#undef PROGSIM_TYPE
};

const OpId kAllOps[] = {OpId::Max,  OpId::Min,  OpId::Sum,    OpId::Prod,   OpId::Land,    OpId::Band, OpId::Lor,
                        OpId::Bor,  OpId::Lxor, OpId::Bxor,   OpId::Minloc, OpId::Maxloc,  OpId::Replace,
                        OpId::NoOp};

// Applies op to copies of in/inout twice: once on the vectors (aligned), once
// on byte buffers at odd offsets (unaligned); both must give the same bytes.
template <class T>
std::vector<T> run(OpId op, int type, const std::vector<T>& in, std::vector<T> inout) {
    EXPECT_EQ(in.size(), inout.size());
    const std::size_t n = inout.size();
    const std::size_t bytes = n * sizeof(T);
    std::vector<unsigned char> uin(bytes + 8), uio(bytes + 8);
    std::memcpy(uin.data() + 1, in.data(), bytes);
    std::memcpy(uio.data() + 3, inout.data(), bytes);

    apply(op, type, in.data(), inout.data(), static_cast<std::int64_t>(n));
    apply(op, type, uin.data() + 1, uio.data() + 3, static_cast<std::int64_t>(n));

    EXPECT_EQ(0, std::memcmp(uio.data() + 3, inout.data(), bytes))
        << op_name(op) << " gives different bytes on unaligned buffers";
    EXPECT_EQ(0, std::memcmp(uin.data() + 1, in.data(), bytes)) << op_name(op) << " modified `in`";
    return inout;
}

// ---------------------------------------------------------------------------
// Names

TEST(ReductionOpName, AllPredefinedOps) {
    const char* expected[] = {"MPI_MAX",  "MPI_MIN",  "MPI_SUM",    "MPI_PROD",   "MPI_LAND",    "MPI_BAND",
                              "MPI_LOR",  "MPI_BOR",  "MPI_LXOR",   "MPI_BXOR",   "MPI_MINLOC",  "MPI_MAXLOC",
                              "MPI_REPLACE", "MPI_NO_OP"};
    for (int i = 0; i < kNumPredefinedOps; ++i) EXPECT_STREQ(expected[i], op_name(kAllOps[i]));
    EXPECT_STREQ("MPI_OP_NULL", op_name(static_cast<OpId>(0)));
    EXPECT_STREQ("(invalid MPI_Op)", op_name(static_cast<OpId>(15)));
    EXPECT_STREQ("(invalid MPI_Op)", op_name(static_cast<OpId>(-1)));
}

TEST(ReductionOpName, HandleIndicesMatchHandlesMd) {
    EXPECT_EQ(1, static_cast<int>(OpId::Max));
    EXPECT_EQ(3, static_cast<int>(OpId::Sum));
    EXPECT_EQ(10, static_cast<int>(OpId::Bxor));
    EXPECT_EQ(11, static_cast<int>(OpId::Minloc));
    EXPECT_EQ(12, static_cast<int>(OpId::Maxloc));
    EXPECT_EQ(13, static_cast<int>(OpId::Replace));
    EXPECT_EQ(14, static_cast<int>(OpId::NoOp));
}

// ---------------------------------------------------------------------------
// Applicability (MPI-4.1 §6.9.2), checked against an independent listing.

enum class Group { CInt, OtherInt, Float, Complex, Logical, Byte, Pair, None };

Group group_of(int index) {
    static const std::set<int> c_int = {kCHAR,  kSIGNED_CHAR, kUNSIGNED_CHAR, kSHORT,  kUNSIGNED_SHORT,
                                        kINT,   kUNSIGNED,    kLONG,          kUNSIGNED_LONG,
                                        kLONG_LONG_INT,       kUNSIGNED_LONG_LONG,
                                        kINT8_T, kINT16_T,    kINT32_T,       kINT64_T, kUINT8_T,
                                        kUINT16_T, kUINT32_T, kUINT64_T,
                                        kAINT,   kCOUNT,      kOFFSET};  // as MPICH: logical ops too
    static const std::set<int> other_int = {kINTEGER, kINTEGER1, kINTEGER2, kINTEGER4, kINTEGER8};
    static const std::set<int> floating = {kFLOAT, kDOUBLE, kLONG_DOUBLE, kREAL, kDOUBLE_PRECISION,
                                           kREAL4, kREAL8,  kREAL16};
    static const std::set<int> complex = {kC_FLOAT_COMPLEX,   kC_DOUBLE_COMPLEX,  kC_LONG_DOUBLE_COMPLEX,
                                          kCXX_FLOAT_COMPLEX, kCXX_DOUBLE_COMPLEX, kCXX_LONG_DOUBLE_COMPLEX,
                                          kCOMPLEX,           kDOUBLE_COMPLEX,    kCOMPLEX8,
                                          kCOMPLEX16,         kCOMPLEX32};
    static const std::set<int> logical = {kC_BOOL, kCXX_BOOL, kLOGICAL};
    static const std::set<int> pair = {kFLOAT_INT, kDOUBLE_INT, k2INT,     kSHORT_INT, kLONG_INT,
                                       kLONG_DOUBLE_INT, k2INTEGER, k2REAL, k2DOUBLE_PRECISION};
    if (c_int.count(index)) return Group::CInt;
    if (other_int.count(index)) return Group::OtherInt;
    if (floating.count(index)) return Group::Float;
    if (complex.count(index)) return Group::Complex;
    if (logical.count(index)) return Group::Logical;
    if (index == kBYTE) return Group::Byte;
    if (pair.count(index)) return Group::Pair;
    return Group::None;  // WCHAR, CHARACTER, PACKED
}

bool expected_applies(OpId op, Group g) {
    const bool integer = g == Group::CInt || g == Group::OtherInt;
    switch (op) {
        case OpId::Max:
        case OpId::Min: return integer || g == Group::Float;
        case OpId::Sum:
        case OpId::Prod: return integer || g == Group::Float || g == Group::Complex;
        case OpId::Land:
        case OpId::Lor:
        case OpId::Lxor: return g == Group::CInt || g == Group::Logical;
        case OpId::Band:
        case OpId::Bor:
        case OpId::Bxor: return integer || g == Group::Byte;
        case OpId::Minloc:
        case OpId::Maxloc: return g == Group::Pair;
        case OpId::Replace:
        case OpId::NoOp: return true;
    }
    return false;
}

TEST(ReductionOpApplies, FullMatrixMatchesStandardTable) {
    int none = 0;
    for (const TypeInfo& t : kAllTypes) {
        const Group g = group_of(t.index);
        if (g == Group::None) ++none;
        for (OpId op : kAllOps)
            EXPECT_EQ(expected_applies(op, g), op_applies(op, t.index)) << op_name(op) << " on " << t.name;
    }
    EXPECT_EQ(3, none);  // WCHAR, CHARACTER, PACKED: every other type is listed
}

TEST(ReductionOpApplies, SpotChecks) {
    EXPECT_FALSE(op_applies(OpId::Sum, k2INT));
    EXPECT_FALSE(op_applies(OpId::Band, kDOUBLE));
    EXPECT_FALSE(op_applies(OpId::Land, kDOUBLE));
    EXPECT_FALSE(op_applies(OpId::Max, kC_DOUBLE_COMPLEX));
    EXPECT_FALSE(op_applies(OpId::Minloc, kINT));
    EXPECT_FALSE(op_applies(OpId::Sum, kBYTE));
    EXPECT_FALSE(op_applies(OpId::Band, kC_BOOL));
    EXPECT_FALSE(op_applies(OpId::Sum, kC_BOOL));
    EXPECT_FALSE(op_applies(OpId::Land, kINTEGER));  // Fortran integer: no logical ops
    EXPECT_TRUE(op_applies(OpId::Lor, kAINT));  // as MPICH (coll/allred)
    EXPECT_FALSE(op_applies(OpId::Sum, kPACKED));
    EXPECT_FALSE(op_applies(OpId::Max, kWCHAR));
    EXPECT_FALSE(op_applies(OpId::Sum, kCHARACTER));

    EXPECT_TRUE(op_applies(OpId::Sum, kC_DOUBLE_COMPLEX));
    EXPECT_TRUE(op_applies(OpId::Prod, kCOMPLEX32));
    EXPECT_TRUE(op_applies(OpId::Minloc, kDOUBLE_INT));
    EXPECT_TRUE(op_applies(OpId::Maxloc, k2DOUBLE_PRECISION));
    EXPECT_TRUE(op_applies(OpId::Band, kINTEGER8));
    EXPECT_TRUE(op_applies(OpId::Bxor, kOFFSET));
    EXPECT_TRUE(op_applies(OpId::Sum, kCOUNT));
    EXPECT_TRUE(op_applies(OpId::Lxor, kLOGICAL));
    EXPECT_TRUE(op_applies(OpId::Band, kBYTE));
    // MPICH extension: MPI_CHAR behaves as a C integer.
    for (OpId op : {OpId::Max, OpId::Min, OpId::Sum, OpId::Prod, OpId::Land, OpId::Lor, OpId::Lxor,
                    OpId::Band, OpId::Bor, OpId::Bxor})
        EXPECT_TRUE(op_applies(op, kCHAR)) << op_name(op);
    EXPECT_FALSE(op_applies(OpId::Minloc, kCHAR));
    // REPLACE / NO_OP: every predefined type.
    for (const TypeInfo& t : kAllTypes) {
        EXPECT_TRUE(op_applies(OpId::Replace, t.index)) << t.name;
        EXPECT_TRUE(op_applies(OpId::NoOp, t.index)) << t.name;
    }
}

TEST(ReductionOpApplies, InvalidOpOrTypeIndex) {
    EXPECT_FALSE(op_applies(OpId::Sum, 0));
    EXPECT_FALSE(op_applies(OpId::Sum, -1));
    EXPECT_FALSE(op_applies(OpId::Sum, 63));
    EXPECT_FALSE(op_applies(OpId::Replace, 1000));
    EXPECT_FALSE(op_applies(OpId::Sum, 0x4c000008));  // a full handle, not an index
    EXPECT_FALSE(op_applies(static_cast<OpId>(0), kINT));
    EXPECT_FALSE(op_applies(static_cast<OpId>(15), kINT));
}

// Every (op, type) pair: runs (on arbitrary bytes, unaligned) iff it applies.
TEST(ReductionOpApply, EveryCombinationRunsOrThrows) {
    constexpr int n = 5;
    for (const TypeInfo& t : kAllTypes) {
        for (OpId op : kAllOps) {
            std::vector<unsigned char> in(n * t.size + 1), io(n * t.size + 2);
            for (std::size_t i = 0; i < in.size(); ++i) in[i] = static_cast<unsigned char>(i * 37 + 11);
            for (std::size_t i = 0; i < io.size(); ++i) io[i] = static_cast<unsigned char>(i * 91 + 5);
            if (op_applies(op, t.index)) {
                EXPECT_NO_THROW(apply(op, t.index, in.data() + 1, io.data() + 2, n)) << op_name(op) << " " << t.name;
            } else {
                EXPECT_THROW(apply(op, t.index, in.data() + 1, io.data() + 2, n), std::invalid_argument)
                    << op_name(op) << " " << t.name;
            }
        }
    }
}

TEST(ReductionOpApply, ErrorMessagesNameOpAndType) {
    int a = 1, b = 2;
    try {
        apply(OpId::Sum, k2INT, &a, &b, 1);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ("MPI_SUM is not defined for MPI_2INT", e.what());
    }
    try {
        apply(OpId::Sum, 99, &a, &b, 1);
        FAIL() << "expected std::invalid_argument";
    } catch (const std::invalid_argument& e) {
        EXPECT_STREQ("MPI_SUM is not defined for datatype index 99", e.what());
    }
}

TEST(ReductionOpApply, CountZeroAndNegative) {
    EXPECT_NO_THROW(apply(OpId::Sum, kINT, nullptr, nullptr, 0));
    EXPECT_NO_THROW(apply(OpId::Replace, kDOUBLE_INT, nullptr, nullptr, 0));
    int a = 1, b = 2;
    EXPECT_THROW(apply(OpId::Sum, kINT, &a, &b, -1), std::invalid_argument);
    EXPECT_EQ(2, b);
}

// ---------------------------------------------------------------------------
// Integers

TEST(ReductionOpInt, AllOpsExact) {
    const std::vector<int> in = {5, -3, 0, 7};
    const std::vector<int> io = {2, -8, 0, -7};
    EXPECT_EQ((std::vector<int>{5, -3, 0, 7}), run(OpId::Max, kINT, in, io));
    EXPECT_EQ((std::vector<int>{2, -8, 0, -7}), run(OpId::Min, kINT, in, io));
    EXPECT_EQ((std::vector<int>{7, -11, 0, 0}), run(OpId::Sum, kINT, in, io));
    EXPECT_EQ((std::vector<int>{10, 24, 0, -49}), run(OpId::Prod, kINT, in, io));
    EXPECT_EQ(in, run(OpId::Replace, kINT, in, io));
    EXPECT_EQ(io, run(OpId::NoOp, kINT, in, io));

    const std::vector<int> lin = {0, 0, 5, -2};
    const std::vector<int> lio = {0, 3, 0, 9};
    EXPECT_EQ((std::vector<int>{0, 0, 0, 1}), run(OpId::Land, kINT, lin, lio));
    EXPECT_EQ((std::vector<int>{0, 1, 1, 1}), run(OpId::Lor, kINT, lin, lio));
    EXPECT_EQ((std::vector<int>{0, 1, 1, 0}), run(OpId::Lxor, kINT, lin, lio));

    const std::vector<int> bin = {0x0F0F, -1, 0x1234, 0};
    const std::vector<int> bio = {0x00FF, 0x5555, 0x00F0, -1};
    EXPECT_EQ((std::vector<int>{0x000F, 0x5555, 0x0030, 0}), run(OpId::Band, kINT, bin, bio));
    EXPECT_EQ((std::vector<int>{0x0FFF, -1, 0x12F4, -1}), run(OpId::Bor, kINT, bin, bio));
    EXPECT_EQ((std::vector<int>{0x0FF0, ~0x5555, 0x12C4, -1}), run(OpId::Bxor, kINT, bin, bio));
}

// The same small values through every integer width and signedness.
template <class T>
void check_integer_ops(int type, bool logical) {
    SCOPED_TRACE(type);
    auto v = [](std::initializer_list<int> l) {
        std::vector<T> r;
        for (int x : l) r.push_back(static_cast<T>(x));
        return r;
    };
    const auto in = v({5, 0, 12, 3});
    const auto io = v({2, 4, 10, 9});
    EXPECT_EQ(v({5, 4, 12, 9}), run(OpId::Max, type, in, io));
    EXPECT_EQ(v({2, 0, 10, 3}), run(OpId::Min, type, in, io));
    EXPECT_EQ(v({7, 4, 22, 12}), run(OpId::Sum, type, in, io));
    EXPECT_EQ(v({10, 0, 120, 27}), run(OpId::Prod, type, in, io));
    EXPECT_EQ(v({0, 0, 8, 1}), run(OpId::Band, type, in, io));
    EXPECT_EQ(v({7, 4, 14, 11}), run(OpId::Bor, type, in, io));
    EXPECT_EQ(v({7, 4, 6, 10}), run(OpId::Bxor, type, in, io));
    EXPECT_EQ(in, run(OpId::Replace, type, in, io));
    EXPECT_EQ(io, run(OpId::NoOp, type, in, io));
    EXPECT_EQ(logical, op_applies(OpId::Land, type));
    if (logical) {
        EXPECT_EQ(v({1, 0, 1, 1}), run(OpId::Land, type, in, io));
        EXPECT_EQ(v({1, 1, 1, 1}), run(OpId::Lor, type, in, io));
        EXPECT_EQ(v({0, 1, 0, 0}), run(OpId::Lxor, type, in, io));
    }
}

TEST(ReductionOpInt, EveryWidthAndSignedness) {
    check_integer_ops<char>(kCHAR, true);
    check_integer_ops<signed char>(kSIGNED_CHAR, true);
    check_integer_ops<unsigned char>(kUNSIGNED_CHAR, true);
    check_integer_ops<short>(kSHORT, true);
    check_integer_ops<unsigned short>(kUNSIGNED_SHORT, true);
    check_integer_ops<unsigned>(kUNSIGNED, true);
    check_integer_ops<long>(kLONG, true);
    check_integer_ops<unsigned long>(kUNSIGNED_LONG, true);
    check_integer_ops<long long>(kLONG_LONG_INT, true);
    check_integer_ops<unsigned long long>(kUNSIGNED_LONG_LONG, true);
    check_integer_ops<int8_t>(kINT8_T, true);
    check_integer_ops<int16_t>(kINT16_T, true);
    check_integer_ops<int32_t>(kINT32_T, true);
    check_integer_ops<int64_t>(kINT64_T, true);
    check_integer_ops<uint8_t>(kUINT8_T, true);
    check_integer_ops<uint16_t>(kUINT16_T, true);
    check_integer_ops<uint32_t>(kUINT32_T, true);
    check_integer_ops<uint64_t>(kUINT64_T, true);
    // Fortran integer and multi-language types: no logical ops.
    check_integer_ops<int>(kINTEGER, false);
    check_integer_ops<int8_t>(kINTEGER1, false);
    check_integer_ops<int16_t>(kINTEGER2, false);
    check_integer_ops<int32_t>(kINTEGER4, false);
    check_integer_ops<int64_t>(kINTEGER8, false);
    check_integer_ops<intptr_t>(kAINT, true);  // logical ops as MPICH
    check_integer_ops<long long>(kCOUNT, true);  // logical ops as MPICH
    check_integer_ops<long long>(kOFFSET, true);  // logical ops as MPICH
}

TEST(ReductionOpInt, SignednessOfMaxMin) {
    EXPECT_EQ((std::vector<int8_t>{1}), run<int8_t>(OpId::Max, kINT8_T, {-1}, {1}));
    EXPECT_EQ((std::vector<int8_t>{-1}), run<int8_t>(OpId::Min, kINT8_T, {-1}, {1}));
    EXPECT_EQ((std::vector<uint8_t>{255}), run<uint8_t>(OpId::Max, kUINT8_T, {255}, {1}));
    EXPECT_EQ((std::vector<uint64_t>{1}), run<uint64_t>(OpId::Min, kUINT64_T, {UINT64_MAX}, {1}));
    EXPECT_EQ((std::vector<long>{LONG_MIN}), run<long>(OpId::Min, kLONG, {LONG_MIN}, {LONG_MAX}));
    // MPI_CHAR compares with the signedness of the platform's char.
    const char hi = static_cast<char>(0x80), one = 1;
    const char expected_max = std::is_signed_v<char> ? one : hi;
    EXPECT_EQ((std::vector<char>{expected_max}), run<char>(OpId::Max, kCHAR, {hi}, {one}));
}

TEST(ReductionOpInt, SignedOverflowWraps) {
    EXPECT_EQ((std::vector<int>{INT_MIN}), run<int>(OpId::Sum, kINT, {INT_MAX}, {1}));
    EXPECT_EQ((std::vector<int>{INT_MAX}), run<int>(OpId::Sum, kINT, {INT_MIN}, {-1}));
    EXPECT_EQ((std::vector<int>{INT_MIN}), run<int>(OpId::Prod, kINT, {INT_MIN}, {-1}));
    EXPECT_EQ((std::vector<int>{0}), run<int>(OpId::Prod, kINT, {65536}, {65536}));
    EXPECT_EQ((std::vector<int8_t>{-128}), run<int8_t>(OpId::Sum, kINT8_T, {127}, {1}));
    EXPECT_EQ((std::vector<short>{1}), run<short>(OpId::Prod, kSHORT, {32767}, {32767}));
    // unsigned short * unsigned short would overflow int after promotion.
    EXPECT_EQ((std::vector<unsigned short>{1}),
              run<unsigned short>(OpId::Prod, kUNSIGNED_SHORT, {65535}, {65535}));
    EXPECT_EQ((std::vector<uint32_t>{1}), run<uint32_t>(OpId::Sum, kUINT32_T, {0xFFFFFFFFu}, {2}));
    EXPECT_EQ((std::vector<int64_t>{-2}), run<int64_t>(OpId::Sum, kINT64_T, {INT64_MAX}, {INT64_MAX}));
    EXPECT_EQ((std::vector<long long>{LLONG_MIN}),
              run<long long>(OpId::Prod, kLONG_LONG_INT, {LLONG_MIN}, {-1}));
    EXPECT_EQ((std::vector<long long>{1}), run<long long>(OpId::Prod, kCOUNT, {LLONG_MAX}, {LLONG_MAX}));
    EXPECT_EQ((std::vector<intptr_t>{INTPTR_MIN}), run<intptr_t>(OpId::Sum, kAINT, {INTPTR_MAX}, {1}));
    EXPECT_EQ((std::vector<char>{static_cast<char>(200)}), run<char>(OpId::Sum, kCHAR, {100}, {100}));
}

TEST(ReductionOpInt, LargeCountAndInPlace) {
    std::vector<int> in(1001), io(1001), expected(1001);
    for (int i = 0; i < 1001; ++i) {
        in[static_cast<std::size_t>(i)] = i * 7 - 300;
        io[static_cast<std::size_t>(i)] = 5000 - i * 3;
        expected[static_cast<std::size_t>(i)] = i * 4 + 4700;
    }
    EXPECT_EQ(expected, run(OpId::Sum, kINT, in, io));

    // in == inout (the caller's MPI_IN_PLACE handling may end up here).
    std::vector<long> buf = {1, -2, 3};
    apply(OpId::Sum, kLONG, buf.data(), buf.data(), 3);
    EXPECT_EQ((std::vector<long>{2, -4, 6}), buf);
    apply(OpId::Replace, kLONG, buf.data(), buf.data(), 3);
    EXPECT_EQ((std::vector<long>{2, -4, 6}), buf);
}

// ---------------------------------------------------------------------------
// Floating point

template <class T>
void check_float_ops(int type) {
    SCOPED_TRACE(type);
    const std::vector<T> in = {T(1.5), T(-2.0), T(1e16), T(0.1)};
    const std::vector<T> io = {T(2.25), T(-3.0), T(1.0), T(0.2)};
    EXPECT_EQ((std::vector<T>{T(2.25), T(-2.0), T(1e16), T(0.2)}), run(OpId::Max, type, in, io));
    EXPECT_EQ((std::vector<T>{T(1.5), T(-3.0), T(1.0), T(0.1)}), run(OpId::Min, type, in, io));
    // in + inout, rounded once per element in the type's own precision.
    volatile T sum_big = T(1e16), sum_small = T(0.1);
    sum_big = sum_big + T(1.0);
    sum_small = sum_small + T(0.2);
    EXPECT_EQ((std::vector<T>{T(3.75), T(-5.0), sum_big, sum_small}), run(OpId::Sum, type, in, io));
    volatile T prod_small = T(0.1);
    prod_small = prod_small * T(0.2);
    EXPECT_EQ((std::vector<T>{T(3.375), T(6.0), T(1e16), prod_small}), run(OpId::Prod, type, in, io));
    EXPECT_EQ(in, run(OpId::Replace, type, in, io));
    EXPECT_EQ(io, run(OpId::NoOp, type, in, io));
}

TEST(ReductionOpFloat, AllOpsExact) {
    check_float_ops<float>(kFLOAT);
    check_float_ops<double>(kDOUBLE);
    check_float_ops<long double>(kLONG_DOUBLE);
    check_float_ops<float>(kREAL);
    check_float_ops<double>(kDOUBLE_PRECISION);
    check_float_ops<float>(kREAL4);
    check_float_ops<double>(kREAL8);
    check_float_ops<long double>(kREAL16);
}

TEST(ReductionOpFloat, SumIsElementwiseNotReassociated) {
    // 1 + 2^53 is not representable: element-wise in + inout rounds each
    // element on its own.
    const double big = 9007199254740992.0;  // 2^53
    const auto r = run<double>(OpId::Sum, kDOUBLE, {1.0, 1.0}, {big, -big});
    EXPECT_EQ(big, r[0]);
    EXPECT_EQ(1.0 - big, r[1]);
}

TEST(ReductionOpFloat, MaxMinNaNAndSignedZeroFollowMpich) {
    const double nan = std::numeric_limits<double>::quiet_NaN();
    // result = inout > in ? inout : in  (MIN: <): NaN on either side -> in.
    auto r = run<double>(OpId::Max, kDOUBLE, {nan, 1.0}, {1.0, nan});
    EXPECT_TRUE(std::isnan(r[0]));
    EXPECT_EQ(1.0, r[1]);
    r = run<double>(OpId::Min, kDOUBLE, {nan, 1.0}, {1.0, nan});
    EXPECT_TRUE(std::isnan(r[0]));
    EXPECT_EQ(1.0, r[1]);
    // +0.0 vs -0.0 compare equal: in wins.
    r = run<double>(OpId::Max, kDOUBLE, {-0.0, 0.0}, {0.0, -0.0});
    EXPECT_TRUE(std::signbit(r[0]));
    EXPECT_FALSE(std::signbit(r[1]));
}

TEST(ReductionOpFloat, LongDoublePaddingUntouched) {
#if (defined(__x86_64__) || defined(__i386__)) && LDBL_MANT_DIG == 64
    const std::size_t n = 3, sz = sizeof(long double);
    std::vector<unsigned char> in(n * sz + 1, 0xCD), io(n * sz + 1, 0xAB);
    for (std::size_t i = 0; i < n; ++i) {
        const long double a = 1.25L * static_cast<long double>(i + 1), b = 0.5L;
        std::memcpy(in.data() + 1 + i * sz, &a, 10);
        std::memcpy(io.data() + 1 + i * sz, &b, 10);
    }
    for (OpId op : {OpId::Sum, OpId::Prod, OpId::Max, OpId::Min}) {
        apply(op, kLONG_DOUBLE, in.data() + 1, io.data() + 1, n);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t b = 10; b < sz; ++b) EXPECT_EQ(0xAB, io[1 + i * sz + b]) << op_name(op);
    }
    long double r0;
    std::memcpy(&r0, io.data() + 1, sizeof r0);
    EXPECT_EQ(1.25L, r0);  // ((1.25+0.5)*0.5 max 1.25) min 1.25 -> 1.25
#else
    GTEST_SKIP() << "long double has no padding on this platform";
#endif
}

// ---------------------------------------------------------------------------
// Complex

template <class T>
void check_complex_ops(int type) {
    SCOPED_TRACE(type);
    using C = std::complex<T>;
    const std::vector<C> in = {C(1, 2), C(0.5, -1), C(0, 1), C(3, 0)};
    const std::vector<C> io = {C(3, 4), C(2, 2), C(0, 1), C(0, -2)};
    EXPECT_EQ((std::vector<C>{C(4, 6), C(2.5, 1), C(0, 2), C(3, -2)}), run(OpId::Sum, type, in, io));
    // (1+2i)(3+4i) = -5+10i; (0.5-i)(2+2i) = 3-i; i*i = -1; 3*(-2i) = -6i
    EXPECT_EQ((std::vector<C>{C(-5, 10), C(3, -1), C(-1, 0), C(0, -6)}), run(OpId::Prod, type, in, io));
    EXPECT_EQ(in, run(OpId::Replace, type, in, io));
    EXPECT_FALSE(op_applies(OpId::Max, type));
    EXPECT_FALSE(op_applies(OpId::Land, type));
}

TEST(ReductionOpComplex, SumAndProdExact) {
    check_complex_ops<float>(kC_FLOAT_COMPLEX);
    check_complex_ops<double>(kC_DOUBLE_COMPLEX);
    check_complex_ops<long double>(kC_LONG_DOUBLE_COMPLEX);
    check_complex_ops<float>(kCXX_FLOAT_COMPLEX);
    check_complex_ops<double>(kCXX_DOUBLE_COMPLEX);
    check_complex_ops<long double>(kCXX_LONG_DOUBLE_COMPLEX);
    check_complex_ops<float>(kCOMPLEX);
    check_complex_ops<double>(kDOUBLE_COMPLEX);
    check_complex_ops<float>(kCOMPLEX8);
    check_complex_ops<double>(kCOMPLEX16);
    check_complex_ops<long double>(kCOMPLEX32);
}

TEST(ReductionOpComplex, ProdIsComplexMultiplicationNotComponentwise) {
    using C = std::complex<double>;
    const auto r = run<C>(OpId::Prod, kC_DOUBLE_COMPLEX, {C(2, 3)}, {C(4, 5)});
    EXPECT_EQ(C(-7, 22), r[0]);  // not (8, 15)
}

// ---------------------------------------------------------------------------
// Logical and byte

TEST(ReductionOpLogical, BoolTreatsAnyNonzeroByteAsTrue) {
    // Bool buffers are handled as bytes here: a bool object holding 2 or 0xFF
    // must never be read as bool.
    const std::vector<uint8_t> in = {0, 1, 2, 0xFF, 0};
    const std::vector<uint8_t> io = {0, 0, 0x80, 1, 0x40};
    for (int type : {kC_BOOL, kCXX_BOOL}) {
        EXPECT_EQ((std::vector<uint8_t>{0, 0, 1, 1, 0}), run(OpId::Land, type, in, io));
        EXPECT_EQ((std::vector<uint8_t>{0, 1, 1, 1, 1}), run(OpId::Lor, type, in, io));
        EXPECT_EQ((std::vector<uint8_t>{0, 1, 0, 0, 1}), run(OpId::Lxor, type, in, io));
        EXPECT_EQ(in, run(OpId::Replace, type, in, io));
        EXPECT_EQ(io, run(OpId::NoOp, type, in, io));
    }
}

TEST(ReductionOpLogical, FortranLogical) {
    const std::vector<int> in = {0, -1, 7, 0};
    const std::vector<int> io = {0, 1, 0, 42};
    EXPECT_EQ((std::vector<int>{0, 1, 0, 0}), run(OpId::Land, kLOGICAL, in, io));
    EXPECT_EQ((std::vector<int>{0, 1, 1, 1}), run(OpId::Lor, kLOGICAL, in, io));
    EXPECT_EQ((std::vector<int>{0, 0, 1, 1}), run(OpId::Lxor, kLOGICAL, in, io));
}

TEST(ReductionOpByte, Bitwise) {
    const std::vector<uint8_t> in = {0xF0, 0xAA, 0x00};
    const std::vector<uint8_t> io = {0x3C, 0x55, 0xFF};
    EXPECT_EQ((std::vector<uint8_t>{0x30, 0x00, 0x00}), run(OpId::Band, kBYTE, in, io));
    EXPECT_EQ((std::vector<uint8_t>{0xFC, 0xFF, 0xFF}), run(OpId::Bor, kBYTE, in, io));
    EXPECT_EQ((std::vector<uint8_t>{0xCC, 0xFF, 0xFF}), run(OpId::Bxor, kBYTE, in, io));
    EXPECT_EQ(in, run(OpId::Replace, kBYTE, in, io));
    EXPECT_EQ(in, run(OpId::Replace, kPACKED, in, io));
    EXPECT_EQ(io, run(OpId::NoOp, kPACKED, in, io));
}

// ---------------------------------------------------------------------------
// MINLOC / MAXLOC

template <class P>
bool same_pair(const P& a, const P& b) {
    return a.value == b.value && a.index == b.index;
}

template <class P>
std::vector<P> pairs(std::initializer_list<std::pair<int, int>> l) {
    std::vector<P> r;
    for (auto [v, i] : l) {
        P p;
        std::memset(&p, 0, sizeof p);  // deterministic padding for the byte comparison in run()
        p.value = static_cast<decltype(p.value)>(v);
        p.index = static_cast<decltype(p.index)>(i);
        r.push_back(p);
    }
    return r;
}

template <class P>
void check_loc_ops(int type) {
    SCOPED_TRACE(type);
    // element: in smaller | inout smaller | tie, in has smaller index |
    //          tie, inout has smaller index | identical | negative values
    const auto in = pairs<P>({{3, 7}, {5, 1}, {4, 2}, {4, 9}, {6, 6}, {-2, 4}});
    const auto io = pairs<P>({{4, 1}, {2, 5}, {4, 8}, {4, 3}, {6, 6}, {-1, 0}});
    const auto mn = run(OpId::Minloc, type, in, io);
    const auto mx = run(OpId::Maxloc, type, in, io);
    const auto emn = pairs<P>({{3, 7}, {2, 5}, {4, 2}, {4, 3}, {6, 6}, {-2, 4}});
    const auto emx = pairs<P>({{4, 1}, {5, 1}, {4, 2}, {4, 3}, {6, 6}, {-1, 0}});
    ASSERT_EQ(emn.size(), mn.size());
    for (std::size_t i = 0; i < mn.size(); ++i) {
        EXPECT_TRUE(same_pair(emn[i], mn[i])) << "MINLOC element " << i << ": (" << mn[i].value << ", " << mn[i].index << ")";
        EXPECT_TRUE(same_pair(emx[i], mx[i])) << "MAXLOC element " << i << ": (" << mx[i].value << ", " << mx[i].index << ")";
    }
}

TEST(ReductionOpLoc, AllPairTypesWithTieBreaking) {
    check_loc_ops<progsim::FloatInt>(kFLOAT_INT);
    check_loc_ops<progsim::DoubleInt>(kDOUBLE_INT);
    check_loc_ops<progsim::LongInt>(kLONG_INT);
    check_loc_ops<progsim::TwoInt>(k2INT);
    check_loc_ops<progsim::ShortInt>(kSHORT_INT);
    check_loc_ops<progsim::LongDoubleInt>(kLONG_DOUBLE_INT);
    check_loc_ops<progsim::TwoInt>(k2INTEGER);
    check_loc_ops<progsim::TwoFloat>(k2REAL);
    check_loc_ops<progsim::TwoDouble>(k2DOUBLE_PRECISION);
}

TEST(ReductionOpLoc, TieKeepsSmallerIndexWhicheverSideHasIt) {
    using progsim::TwoInt;
    const auto a = run<TwoInt>(OpId::Minloc, k2INT, {{10, 1}}, {{10, 2}});
    EXPECT_EQ(10, a[0].value);
    EXPECT_EQ(1, a[0].index);
    const auto b = run<TwoInt>(OpId::Minloc, k2INT, {{10, 2}}, {{10, 1}});
    EXPECT_EQ(1, b[0].index);
    const auto c = run<TwoInt>(OpId::Maxloc, k2INT, {{10, 5}}, {{10, 3}});
    EXPECT_EQ(3, c[0].index);
    const auto d = run<TwoInt>(OpId::Maxloc, k2INT, {{10, 3}}, {{10, 5}});
    EXPECT_EQ(3, d[0].index);
}

TEST(ReductionOpLoc, NaNLeavesInoutUnchanged) {
    using progsim::DoubleInt;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    auto r = run<DoubleInt>(OpId::Minloc, kDOUBLE_INT, {{nan, 7}}, {{1.0, 3}});
    EXPECT_EQ(1.0, r[0].value);
    EXPECT_EQ(3, r[0].index);
    r = run<DoubleInt>(OpId::Maxloc, kDOUBLE_INT, {{1.0, 3}}, {{nan, 7}});
    EXPECT_TRUE(std::isnan(r[0].value));
    EXPECT_EQ(7, r[0].index);
}

TEST(ReductionOpLoc, PaddingUntouchedAndUnaligned) {
    using progsim::DoubleInt;
    static_assert(sizeof(DoubleInt) == 16 && offsetof(DoubleInt, index) == 8);
    std::vector<unsigned char> in(2 * 16 + 1, 0xCD), io(2 * 16 + 3, 0xAB);
    auto put = [](unsigned char* p, double v, int i) {
        std::memcpy(p, &v, 8);
        std::memcpy(p + 8, &i, 4);
    };
    put(in.data() + 1, 1.0, 4);       // wins element 0
    put(in.data() + 1 + 16, 9.0, 0);  // loses element 1
    put(io.data() + 3, 2.0, 8);
    put(io.data() + 3 + 16, 3.0, 1);
    apply(OpId::Minloc, kDOUBLE_INT, in.data() + 1, io.data() + 3, 2);
    double v;
    int i;
    std::memcpy(&v, io.data() + 3, 8);
    std::memcpy(&i, io.data() + 3 + 8, 4);
    EXPECT_EQ(1.0, v);
    EXPECT_EQ(4, i);
    std::memcpy(&v, io.data() + 3 + 16, 8);
    std::memcpy(&i, io.data() + 3 + 24, 4);
    EXPECT_EQ(3.0, v);
    EXPECT_EQ(1, i);
    for (std::size_t e = 0; e < 2; ++e)
        for (std::size_t b = 12; b < 16; ++b) EXPECT_EQ(0xAB, io[3 + e * 16 + b]);
    // REPLACE is a plain byte copy, padding included.
    apply(OpId::Replace, kDOUBLE_INT, in.data() + 1, io.data() + 3, 2);
    EXPECT_EQ(0, std::memcmp(in.data() + 1, io.data() + 3, 32));
}

// ---------------------------------------------------------------------------
// User-defined operations

struct UserCall {
    int calls = 0;
    const void* in = nullptr;
    void* inout = nullptr;
    int len = -1;
    int type = 0;
} g_user_call;

void user_int_sum(void* invec, void* inoutvec, int* len, int* datatype) {
    ++g_user_call.calls;
    g_user_call.in = invec;
    g_user_call.inout = inoutvec;
    g_user_call.len = *len;
    g_user_call.type = *datatype;
    const int* a = static_cast<const int*>(invec);
    int* b = static_cast<int*>(inoutvec);
    for (int i = 0; i < *len; ++i) b[i] = a[i] * 10 + b[i];  // not commutative
    *len = -99;  // scribbling on the arguments must not leak out
    *datatype = 0;
}

TEST(ReductionOpUser, CallsTheFunction) {
    g_user_call = UserCall{};
    const int handle = 0x4c000000 | kINT;
    const UserOp op{&user_int_sum, false};
    EXPECT_FALSE(op.commutative);
    const std::vector<int> in = {1, 2, 3};
    std::vector<int> io = {4, 5, 6};
    int count = 3;
    apply_user(op, in.data(), io.data(), count, handle);
    EXPECT_EQ(1, g_user_call.calls);
    EXPECT_EQ(in.data(), g_user_call.in);
    EXPECT_EQ(io.data(), g_user_call.inout);
    EXPECT_EQ(3, g_user_call.len);
    EXPECT_EQ(handle, g_user_call.type);
    EXPECT_EQ((std::vector<int>{14, 25, 36}), io);
    EXPECT_EQ(3, count);
}

TEST(ReductionOpUser, DefaultsAndErrors) {
    const UserOp def{};
    EXPECT_TRUE(def.c_fn == nullptr);
    EXPECT_TRUE(def.commutative);
    int a = 0, b = 0;
    EXPECT_THROW(apply_user(def, &a, &b, 1, 0x4c000008), std::invalid_argument);
    EXPECT_THROW(apply_user(UserOp{&user_int_sum, true}, &a, &b, -1, 0x4c000008), std::invalid_argument);
}

}  // namespace
