// Datatype engine: pack/unpack (MPI-4.1 §5.2), partial ranges, message
// delivery between layouts (copy_typed) and external32.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <numeric>
#include <vector>

#include "datatype/DatatypeError.hpp"
#include "datatype/External32.hpp"
#include "datatype/Pack.hpp"
#include "datatype/PairTypes.hpp"
#include "datatype/TypeConstructors.hpp"

namespace progsim::dt {
namespace {

using V = std::vector<std::int64_t>;
using Bytes = std::vector<std::byte>;

DatatypePtr T(PrimitiveId id) { return predefined(id); }

std::vector<int> iota_ints(std::size_t n, int first = 0) {
    std::vector<int> v(n);
    std::iota(v.begin(), v.end(), first);
    return v;
}

template <class E>
std::vector<E> as(const Bytes& b) {
    std::vector<E> v(b.size() / sizeof(E));
    std::memcpy(v.data(), b.data(), v.size() * sizeof(E));
    return v;
}

template <class F>
void expect_error(ErrorClass cls, F&& fn) {
    try {
        fn();
        ADD_FAILURE() << "no DatatypeError thrown";
    } catch (const DatatypeError& e) {
        EXPECT_EQ(e.error_class(), cls) << e.what();
    }
}

TEST(DatatypePack, VectorRoundTrip) {
    const auto v = make_vector(3, 2, 4, T(PrimitiveId::kINT));  // extent 10 ints
    const auto src = iota_ints(20);
    EXPECT_EQ(packed_size(*v, 2), 48);
    Bytes buf(48);
    std::size_t pos = 0;
    pack(src.data(), 2, *v, buf.data(), buf.size(), pos);
    EXPECT_EQ(pos, 48u);
    EXPECT_EQ(as<int>(buf), (std::vector<int>{0, 1, 4, 5, 8, 9, 10, 11, 14, 15, 18, 19}));

    std::vector<int> dst(20, -1);
    pos = 0;
    unpack(buf.data(), buf.size(), pos, dst.data(), 2, *v);
    EXPECT_EQ(pos, 48u);
    const std::vector<int> expected{0, 1, -1, -1, 4, 5, -1, -1, 8, 9, 10, 11, -1, -1, 14, 15, -1, -1, 18, 19};
    EXPECT_EQ(dst, expected) << "bytes outside the typemap are untouched";
}

TEST(DatatypePack, PositionAccumulatesAndTruncationThrows) {
    const int a = 7;
    const double d = 2.5;
    Bytes buf(12);
    std::size_t pos = 0;
    pack(&a, 1, *T(PrimitiveId::kINT), buf.data(), buf.size(), pos);
    pack(&d, 1, *T(PrimitiveId::kDOUBLE), buf.data(), buf.size(), pos);
    EXPECT_EQ(pos, 12u);
    expect_error(ErrorClass::Truncate, [&] { pack(&a, 1, *T(PrimitiveId::kINT), buf.data(), buf.size(), pos); });
    EXPECT_EQ(pos, 12u);

    int a2 = 0;
    double d2 = 0;
    pos = 0;
    unpack(buf.data(), buf.size(), pos, &a2, 1, *T(PrimitiveId::kINT));
    unpack(buf.data(), buf.size(), pos, &d2, 1, *T(PrimitiveId::kDOUBLE));
    EXPECT_EQ(a2, 7);
    EXPECT_EQ(d2, 2.5);
    pos = 8;
    expect_error(ErrorClass::Truncate, [&] { unpack(buf.data(), buf.size(), pos, &d2, 1, *T(PrimitiveId::kDOUBLE)); });
    EXPECT_EQ(pos, 8u);
    expect_error(ErrorClass::Count, [&] { pack(&a, -1, *T(PrimitiveId::kINT), buf.data(), buf.size(), pos); });
    // Count 0 with null buffers is fine.
    pos = 0;
    pack(nullptr, 0, *T(PrimitiveId::kINT), nullptr, 0, pos);
    EXPECT_EQ(pos, 0u);
}

TEST(DatatypePack, NegativeDisplacementsAndLowerBound) {
    // Ints at -1 and +1 from the item base; extent 12 bytes (from -4 to 8).
    const auto t = make_indexed(V{1, 1}, V{-1, 1}, T(PrimitiveId::kINT));
    const auto src = iota_ints(8);
    Bytes buf(16);
    std::size_t pos = 0;
    pack(src.data() + 1, 2, *t, buf.data(), buf.size(), pos);  // items at src+1 and src+4
    EXPECT_EQ(as<int>(buf), (std::vector<int>{0, 2, 3, 5}));

    // Resized with a negative lb: item i's int sits at base + 12 i.
    const auto r = make_resized(T(PrimitiveId::kINT), -8, 12);
    pos = 0;
    Bytes buf2(12);
    pack(src.data(), 3, *r, buf2.data(), buf2.size(), pos);
    EXPECT_EQ(as<int>(buf2), (std::vector<int>{0, 3, 6}));
}

TEST(DatatypePack, AbsoluteAddressesFromBottom) {
    // MPI_BOTTOM: a null base and absolute displacements (MPI_Get_address).
    int x = 11;
    double y = 3.25;
    const auto t = make_struct(V{1, 1},
                               V{static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(&x)),
                                 static_cast<std::int64_t>(reinterpret_cast<std::intptr_t>(&y))},
                               {T(PrimitiveId::kINT), T(PrimitiveId::kDOUBLE)});
    Bytes buf(12);
    std::size_t pos = 0;
    pack(nullptr, 1, *t, buf.data(), buf.size(), pos);
    int x2;
    double y2;
    std::memcpy(&x2, buf.data(), 4);
    std::memcpy(&y2, buf.data() + 4, 8);
    EXPECT_EQ(x2, 11);
    EXPECT_EQ(y2, 3.25);
    x = 0;
    y = 0;
    pos = 0;
    unpack(buf.data(), buf.size(), pos, nullptr, 1, *t);
    EXPECT_EQ(x, 11);
    EXPECT_EQ(y, 3.25);
}

TEST(DatatypePack, PairTypesPackWithoutPadding) {
    DoubleInt src[3] = {{1.5, 1}, {2.5, 2}, {3.5, 3}};
    const auto di = T(PrimitiveId::kDOUBLE_INT);
    EXPECT_EQ(packed_size(*di, 3), 36);
    Bytes buf(36);
    std::size_t pos = 0;
    pack(src, 3, *di, buf.data(), buf.size(), pos);
    double v;
    int idx;
    std::memcpy(&v, buf.data() + 24, 8);
    std::memcpy(&idx, buf.data() + 32, 4);
    EXPECT_EQ(v, 3.5);
    EXPECT_EQ(idx, 3);

    // Unpacking leaves the struct padding alone.
    unsigned char raw[3 * sizeof(DoubleInt)];
    std::memset(raw, 0xab, sizeof raw);
    pos = 0;
    unpack(buf.data(), buf.size(), pos, raw, 3, *di);
    DoubleInt out[3];
    std::memcpy(out, raw, sizeof raw);
    EXPECT_EQ(out[1].value, 2.5);
    EXPECT_EQ(out[1].index, 2);
    EXPECT_EQ(raw[sizeof(DoubleInt) - 1], 0xab);

    ShortInt si[2] = {{-3, 7}, {4, -9}};
    Bytes sb(12);
    pos = 0;
    pack(si, 2, *T(PrimitiveId::kSHORT_INT), sb.data(), sb.size(), pos);
    ShortInt back[2] = {};
    pos = 0;
    unpack(sb.data(), sb.size(), pos, back, 2, *T(PrimitiveId::kSHORT_INT));
    EXPECT_EQ(back[0].value, -3);
    EXPECT_EQ(back[1].index, -9);
}

TEST(DatatypePack, StructCharDouble) {
    struct CD { char c; double d; };
    const auto t = make_struct(V{1, 1}, V{0, static_cast<std::int64_t>(offsetof(CD, d))},
                               {T(PrimitiveId::kCHAR), T(PrimitiveId::kDOUBLE)});
    CD src[2] = {{'a', 1.0}, {'b', 2.0}};
    Bytes buf(18);
    std::size_t pos = 0;
    pack(src, 2, *t, buf.data(), buf.size(), pos);
    EXPECT_EQ(pos, 18u);
    EXPECT_EQ(static_cast<char>(buf[9]), 'b');
    CD dst[2] = {};
    pos = 0;
    unpack(buf.data(), buf.size(), pos, dst, 2, *t);
    EXPECT_EQ(dst[0].c, 'a');
    EXPECT_EQ(dst[1].d, 2.0);
}

TEST(DatatypePack, RangesReassembleTheStream) {
    const auto st = make_struct(V{2, 1, 3}, V{0, 12, 20}, {T(PrimitiveId::kINT), T(PrimitiveId::kDOUBLE),
                                                          T(PrimitiveId::kSHORT)});
    const auto t = make_vector(5, 2, 3, st);
    const std::int64_t count = 3;
    const std::int64_t total = packed_size(*t, count);
    std::vector<unsigned char> src(static_cast<std::size_t>(count * t->extent() + 64));
    for (std::size_t k = 0; k < src.size(); ++k) src[k] = static_cast<unsigned char>(k * 7 + 1);
    Bytes whole(static_cast<std::size_t>(total));
    std::size_t pos = 0;
    pack(src.data(), count, *t, whole.data(), whole.size(), pos);
    for (std::int64_t chunk : {1, 3, 7, 22, 1000}) {
        Bytes pieces(static_cast<std::size_t>(total));
        for (std::int64_t off = 0; off < total; off += chunk)
            pack_range(src.data(), count, *t, off, std::min(chunk, total - off), pieces.data() + off);
        EXPECT_EQ(pieces, whole) << "chunk " << chunk;
        std::vector<unsigned char> dst(src.size(), 0), ref(src.size(), 0);
        for (std::int64_t off = 0; off < total; off += chunk)
            unpack_range(whole.data() + off, off, std::min(chunk, total - off), dst.data(), count, *t);
        pos = 0;
        unpack(whole.data(), whole.size(), pos, ref.data(), count, *t);
        EXPECT_EQ(dst, ref) << "chunk " << chunk;
    }
    expect_error(ErrorClass::Truncate, [&] { pack_range(src.data(), count, *t, total - 1, 2, whole.data()); });
}

TEST(DatatypeCopy, VectorIntoContiguousAndBack) {
    const auto vec = make_vector(3, 1, 2, T(PrimitiveId::kINT));
    const auto src = iota_ints(5);
    int dst[3] = {};
    EXPECT_EQ(copy_typed(src.data(), 1, *vec, dst, 3, *T(PrimitiveId::kINT)), 12);
    EXPECT_EQ(dst[0], 0);
    EXPECT_EQ(dst[1], 2);
    EXPECT_EQ(dst[2], 4);

    std::vector<int> back(5, -1);
    EXPECT_EQ(copy_typed(dst, 1, *make_contiguous(3, T(PrimitiveId::kINT)), back.data(), 1, *vec), 12);
    EXPECT_EQ(back, (std::vector<int>{0, -1, 2, -1, 4}));
}

TEST(DatatypeCopy, NonContiguousToNonContiguous) {
    // Send every other int, receive into an indexed layout in reverse order.
    const auto vec = make_vector(4, 1, 2, T(PrimitiveId::kINT));
    const auto rev = make_indexed(V{1, 1, 1, 1}, V{6, 4, 2, 0}, T(PrimitiveId::kINT));
    const auto src = iota_ints(8, 100);
    std::vector<int> dst(8, 0);
    EXPECT_EQ(copy_typed(src.data(), 1, *vec, dst.data(), 1, *rev), 16);
    EXPECT_EQ(dst, (std::vector<int>{106, 0, 104, 0, 102, 0, 100, 0}));
}

TEST(DatatypeCopy, LargeMessageGoesThroughBounceBufferInChunks) {
    // 100000 ints at stride 2 into 100000 ints at stride 3: both non-contiguous,
    // 400 KB, several bounce-buffer rounds.
    const std::int64_t n = 100000;
    const auto strided2 = make_resized(T(PrimitiveId::kINT), 0, 8);
    const auto strided3 = make_resized(T(PrimitiveId::kINT), 0, 12);
    const auto src = iota_ints(static_cast<std::size_t>(2 * n));
    std::vector<int> dst(static_cast<std::size_t>(3 * n), -1);
    EXPECT_EQ(copy_typed(src.data(), n, *strided2, dst.data(), n, *strided3), 4 * n);
    bool ok = true;
    for (std::int64_t i = 0; i < n; ++i) {
        ok = ok && dst[static_cast<std::size_t>(3 * i)] == 2 * i;
        ok = ok && dst[static_cast<std::size_t>(3 * i + 1)] == -1;
    }
    EXPECT_TRUE(ok);
}

TEST(DatatypeCopy, TruncationAndMaxBytes) {
    const auto i = T(PrimitiveId::kINT);
    const auto src = iota_ints(5, 1);
    std::vector<int> dst(5, 0);
    // 5 ints sent, room for 3: 12 bytes copied, the caller reports MPI_ERR_TRUNCATE.
    EXPECT_EQ(copy_typed(src.data(), 5, *i, dst.data(), 3, *i), 12);
    EXPECT_EQ(dst, (std::vector<int>{1, 2, 3, 0, 0}));
    // max_bytes ends inside an item of a non-contiguous receive type.
    const auto vec = make_vector(2, 1, 2, i);
    std::vector<int> d2(6, 0);
    EXPECT_EQ(copy_typed(src.data(), 5, *i, d2.data(), 3, *vec, 12), 12);
    EXPECT_EQ(d2, (std::vector<int>{1, 0, 2, 3, 0, 0}));
    EXPECT_EQ(copy_typed(src.data(), 0, *i, d2.data(), 3, *vec), 0);
    expect_error(ErrorClass::Count, [&] { copy_typed(src.data(), -1, *i, d2.data(), 3, *vec); });
}

TEST(DatatypeCopy, PairTypeIntoMatchingStruct) {
    // MPI_DOUBLE_INT received as struct {double, int} with a different padding.
    DoubleInt src[2] = {{1.25, 4}, {-2.0, 9}};
    struct Loose { double v; int pad; int i; };
    const auto st = make_resized(make_struct(V{1, 1}, V{0, static_cast<std::int64_t>(offsetof(Loose, i))},
                                             {T(PrimitiveId::kDOUBLE), T(PrimitiveId::kINT)}),
                                 0, sizeof(Loose));
    Loose dst[2] = {};
    EXPECT_EQ(copy_typed(src, 2, *T(PrimitiveId::kDOUBLE_INT), dst, 2, *st), 24);
    EXPECT_EQ(dst[1].v, -2.0);
    EXPECT_EQ(dst[1].i, 9);
    EXPECT_EQ(dst[0].pad, 0);
}

TEST(DatatypeExternal32, BigEndianFixedSizes) {
    const auto i = T(PrimitiveId::kINT);
    const std::int32_t x = 0x01020304;
    Bytes buf(4);
    std::size_t pos = 0;
    pack_external32(&x, 1, *i, buf.data(), buf.size(), pos);
    EXPECT_EQ(buf, (Bytes{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4}}));

    const double d = 1.0;
    Bytes db(8);
    pos = 0;
    pack_external32(&d, 1, *T(PrimitiveId::kDOUBLE), db.data(), db.size(), pos);
    EXPECT_EQ(db[0], std::byte{0x3f});
    EXPECT_EQ(db[1], std::byte{0xf0});
    EXPECT_EQ(db[7], std::byte{0});

    // MPI_LONG is 4 bytes in external32: truncated, sign-extended back.
    const long l[2] = {-2, 0x12345678};
    EXPECT_EQ(external32_packed_size(*T(PrimitiveId::kLONG), 2), 8);
    Bytes lb(8);
    pos = 0;
    pack_external32(l, 2, *T(PrimitiveId::kLONG), lb.data(), lb.size(), pos);
    EXPECT_EQ(lb[0], std::byte{0xff});
    EXPECT_EQ(lb[3], std::byte{0xfe});
    EXPECT_EQ(lb[4], std::byte{0x12});
    long back[2] = {};
    pos = 0;
    unpack_external32(lb.data(), lb.size(), pos, back, 2, *T(PrimitiveId::kLONG));
    EXPECT_EQ(back[0], -2);
    EXPECT_EQ(back[1], 0x12345678);

    // long double is IEEE binary128: 1.0 = 3fff 0000 ... 0000.
    const long double ld = 1.0L;
    Bytes q(16);
    pos = 0;
    pack_external32(&ld, 1, *T(PrimitiveId::kLONG_DOUBLE), q.data(), q.size(), pos);
    EXPECT_EQ(q[0], std::byte{0x3f});
    EXPECT_EQ(q[1], std::byte{0xff});
    for (int k = 2; k < 16; ++k) EXPECT_EQ(q[k], std::byte{0}) << k;
}

TEST(DatatypeExternal32, RoundTripOfMixedStruct) {
    struct S {
        char c;
        short s;
        unsigned long ul;
        float f;
        long double ld;
        DoubleInt di;
        std::int64_t i64;
    };
    const auto t = make_struct(
        V{1, 1, 1, 1, 1, 1, 1},
        V{static_cast<std::int64_t>(offsetof(S, c)), static_cast<std::int64_t>(offsetof(S, s)),
          static_cast<std::int64_t>(offsetof(S, ul)), static_cast<std::int64_t>(offsetof(S, f)),
          static_cast<std::int64_t>(offsetof(S, ld)), static_cast<std::int64_t>(offsetof(S, di)),
          static_cast<std::int64_t>(offsetof(S, i64))},
        {T(PrimitiveId::kCHAR), T(PrimitiveId::kSHORT), T(PrimitiveId::kUNSIGNED_LONG), T(PrimitiveId::kFLOAT),
         T(PrimitiveId::kLONG_DOUBLE), T(PrimitiveId::kDOUBLE_INT), T(PrimitiveId::kINT64_T)});
    EXPECT_EQ(t->extent(), static_cast<std::int64_t>(sizeof(S)));
    EXPECT_EQ(t->external32_size(), 1 + 2 + 4 + 4 + 16 + 12 + 8);
    const long double lds[] = {-3.75L, 1e-300L, std::numeric_limits<long double>::infinity(), 0.0L,
                               std::numeric_limits<long double>::denorm_min()};
    for (long double v : lds) {
        S src[2] = {};
        src[0] = S{'x', -123, 4000000000UL, 0.5f, v, {6.5, -7}, -(std::int64_t{1} << 40)};
        src[1] = src[0];
        src[1].ld = -v;
        Bytes buf(static_cast<std::size_t>(external32_packed_size(*t, 2)));
        std::size_t pos = 0;
        pack_external32(src, 2, *t, buf.data(), buf.size(), pos);
        EXPECT_EQ(pos, buf.size());
        S dst[2] = {};
        pos = 0;
        unpack_external32(buf.data(), buf.size(), pos, dst, 2, *t);
        for (int k = 0; k < 2; ++k) {
            EXPECT_EQ(dst[k].c, src[k].c);
            EXPECT_EQ(dst[k].s, src[k].s);
            EXPECT_EQ(dst[k].ul, src[k].ul);
            EXPECT_EQ(dst[k].f, src[k].f);
            EXPECT_EQ(dst[k].ld, src[k].ld);
            EXPECT_EQ(dst[k].di.value, src[k].di.value);
            EXPECT_EQ(dst[k].di.index, src[k].di.index);
            EXPECT_EQ(dst[k].i64, src[k].i64);
        }
    }
    Bytes small(10);
    std::size_t pos = 0;
    S one{};
    expect_error(ErrorClass::Truncate, [&] { pack_external32(&one, 1, *t, small.data(), small.size(), pos); });
}

}  // namespace
}  // namespace progsim::dt
