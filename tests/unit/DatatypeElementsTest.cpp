// Datatype engine: MPI_Get_count / MPI_Get_elements, type signatures and
// matching, and the typed visitor used by reductions.
#include <gtest/gtest.h>

#include <cstdint>
#include <tuple>
#include <vector>

#include "datatype/DatatypeError.hpp"
#include "datatype/ElementCount.hpp"
#include "datatype/PairTypes.hpp"
#include "datatype/PrimitiveVisitor.hpp"
#include "datatype/TypeConstructors.hpp"
#include "datatype/TypeSignature.hpp"

namespace progsim::dt {
namespace {

using V = std::vector<std::int64_t>;
using Runs = std::vector<SignatureRun>;

DatatypePtr T(PrimitiveId id) { return predefined(id); }
constexpr PrimitiveId INT = PrimitiveId::kINT;
constexpr PrimitiveId DOUBLE = PrimitiveId::kDOUBLE;

TEST(DatatypeCount, WholeItemsOrUndefined) {
    const auto c3 = make_contiguous(3, T(INT));
    EXPECT_EQ(count_items(*c3, 24), 2);
    EXPECT_EQ(count_items(*c3, 0), 0);
    EXPECT_FALSE(count_items(*c3, 20).has_value());
    EXPECT_EQ(count_items(*make_contiguous(0, T(INT)), 0), 0);
    EXPECT_EQ(count_items(*T(PrimitiveId::kDOUBLE_INT), 36), 3);  // size 12, not the extent 16
    EXPECT_THROW(count_items(*c3, -1), DatatypeError);
}

TEST(DatatypeCount, ElementsOfPartialItems) {
    // {int at 0, double at 8}: 12 bytes, 2 elements per item.
    const auto st = make_struct(V{1, 1}, V{0, 8}, {T(INT), T(DOUBLE)});
    EXPECT_EQ(count_elements(*st, 0), 0);
    EXPECT_EQ(count_elements(*st, 4), 1);
    EXPECT_EQ(count_elements(*st, 8), 1);  // int + half a double
    EXPECT_TRUE(ends_inside_element(*st, 8));
    EXPECT_FALSE(ends_inside_element(*st, 12));
    EXPECT_EQ(count_elements(*st, 12), 2);
    EXPECT_EQ(count_elements(*st, 16), 3);
    EXPECT_EQ(count_elements(*st, 24), 4);
    EXPECT_FALSE(count_items(*st, 16).has_value());

    const auto vec = make_vector(4, 2, 3, T(PrimitiveId::kSHORT));  // 8 shorts, 16 bytes
    EXPECT_EQ(count_elements(*vec, 10), 5);
    EXPECT_EQ(count_elements(*vec, 33), 16);
    EXPECT_TRUE(ends_inside_element(*vec, 33));

    // Nested: the partial item descends two levels.
    const auto nested = make_vector(3, 1, 2, make_struct(V{2, 1}, V{0, 16}, {T(INT), T(DOUBLE)}));
    EXPECT_EQ(nested->num_elements(), 9);
    EXPECT_EQ(count_elements(*nested, 16 + 8 + 4), 5);  // item: 2 ints + double; then 2 ints + ...
    EXPECT_EQ(count_elements(*make_contiguous(0, T(INT)), 100), 0);
}

TEST(DatatypeCount, PairTypesCountTwoElements) {
    const auto di = T(PrimitiveId::kDOUBLE_INT);
    EXPECT_EQ(count_elements(*di, 12), 2);
    EXPECT_EQ(count_elements(*di, 8), 1);  // the value alone
    EXPECT_FALSE(ends_inside_element(*di, 8));
    EXPECT_EQ(count_elements(*di, 10), 1);
    EXPECT_TRUE(ends_inside_element(*di, 10));
    // MPICH's get-elements-pairtype: {double, int, double} received as two
    // MPI_DOUBLE_INT gives 3 elements.
    EXPECT_EQ(count_elements(*di, 20), 3);
    EXPECT_EQ(count_elements(*make_contiguous(5, di), 60), 10);
}

TEST(DatatypeSignature, SameSequenceSameSignature) {
    const auto a = make_contiguous(6, T(INT));
    const auto b = make_contiguous(2, make_contiguous(3, T(INT)));
    const auto c = make_indexed(V{1, 5}, V{10, 0}, T(INT));
    const auto d = make_vector(3, 2, 7, T(INT));
    EXPECT_EQ(a->signature(), b->signature());
    EXPECT_EQ(a->signature(), c->signature());
    EXPECT_EQ(a->signature(), d->signature());
    EXPECT_EQ(a->signature(), message_signature(*T(INT), 6));
    EXPECT_NE(a->signature(), make_contiguous(6, T(PrimitiveId::kFLOAT))->signature());
    EXPECT_NE(a->signature(), make_contiguous(5, T(INT))->signature());
    EXPECT_EQ(signature_runs(*c), (Runs{{INT, 6}}));

    const auto st = make_struct(V{2, 1, 1}, V{0, 8, 16}, {T(INT), T(DOUBLE), T(INT)});
    EXPECT_EQ(signature_runs(*st), (Runs{{INT, 2}, {DOUBLE, 1}, {INT, 1}}));
    EXPECT_EQ(signature_runs(*st, 2), (Runs{{INT, 2}, {DOUBLE, 1}, {INT, 3}, {DOUBLE, 1}, {INT, 1}}));
    EXPECT_EQ(signature_runs(*T(PrimitiveId::kDOUBLE_INT), 2), (Runs{{DOUBLE, 1}, {INT, 1}, {DOUBLE, 1}, {INT, 1}}));
    EXPECT_EQ(signature_runs(*make_contiguous(3, T(PrimitiveId::k2INT))), (Runs{{INT, 6}}));
    EXPECT_EQ(signature_runs(*make_contiguous(1000, st), 1, 4).size(), 4u);
}

TEST(DatatypeSignature, SendReceiveMatching) {
    const auto i = T(INT);
    const auto vec3 = make_vector(3, 1, 2, i);
    EXPECT_TRUE(signatures_match(*vec3, 1, *i, 3));
    EXPECT_TRUE(signatures_match(*vec3, 1, *i, 10));   // shorter send: prefix
    EXPECT_TRUE(signatures_match(*vec3, 2, *i, 4));    // longer send: truncation, not a mismatch
    EXPECT_FALSE(signatures_match(*vec3, 1, *T(PrimitiveId::kFLOAT), 3));
    // Names of one C type match (PrimitiveInfo::matching_id): int32_t is
    // int, MPI_INTEGER has gfortran's int layout, MPI_COUNT is long long.
    EXPECT_TRUE(signatures_match(*vec3, 1, *T(PrimitiveId::kINT32_T), 3));
    EXPECT_TRUE(signatures_match(*vec3, 1, *T(PrimitiveId::kINTEGER), 3));
    EXPECT_TRUE(signatures_match(*T(PrimitiveId::kCOUNT), 2, *T(PrimitiveId::kLONG_LONG_INT), 2));
    // Distinct C types stay apart, whatever their sizes.
    EXPECT_FALSE(signatures_match(*T(PrimitiveId::kCHAR), 4, *T(PrimitiveId::kSIGNED_CHAR), 4));
    EXPECT_FALSE(signatures_match(*T(PrimitiveId::kCHAR), 4, *T(PrimitiveId::kUNSIGNED_CHAR), 4));
    EXPECT_FALSE(signatures_match(*T(PrimitiveId::kLONG), 2, *T(PrimitiveId::kLONG_LONG_INT), 2));
    EXPECT_FALSE(signatures_match(*vec3, 1, *T(PrimitiveId::kUNSIGNED), 3));

    // What a message's envelope carries (EnvelopeSignature): a prefix is
    // accepted, a different type or a longer receive of another type is not,
    // MPI_BYTE and MPI_PACKED on either side are not compared.
    const EnvelopeSignature sent = envelope_signature(*vec3, 1);
    EXPECT_TRUE(sent.checked());
    EXPECT_EQ(sent.elements, 3);
    EXPECT_TRUE(receive_accepts(sent, *i, 3));
    EXPECT_TRUE(receive_accepts(sent, *i, 10));
    EXPECT_TRUE(receive_accepts(sent, *i, 2));  // truncation: another error
    EXPECT_FALSE(receive_accepts(sent, *T(PrimitiveId::kFLOAT), 3));
    EXPECT_FALSE(receive_accepts(sent, *make_struct(V{2, 1}, V{0, 8}, {i, T(PrimitiveId::kFLOAT)}), 2));
    EXPECT_TRUE(receive_accepts(sent, *T(PrimitiveId::kBYTE), 12));
    EXPECT_FALSE(envelope_signature(*T(PrimitiveId::kPACKED), 12).checked());

    // {double, int, double} into two MPI_DOUBLE_INT (MPICH get-elements-pairtype).
    const auto dia = make_struct(V{1, 1, 1}, V{0, 8, 16}, {T(DOUBLE), T(INT), T(DOUBLE)});
    EXPECT_TRUE(signatures_match(*dia, 1, *T(PrimitiveId::kDOUBLE_INT), 2));
    EXPECT_FALSE(signatures_match(*dia, 1, *T(PrimitiveId::kFLOAT_INT), 2));

    // A mismatch deep inside a long message.
    const auto good = make_contiguous(1000, make_struct(V{3, 1}, V{0, 16}, {i, T(DOUBLE)}));
    const auto tail = make_struct(V{3, 1}, V{0, 16}, {i, T(PrimitiveId::kFLOAT)});
    const auto item = make_struct(V{3, 1}, V{0, 16}, {i, T(DOUBLE)});
    const auto bad = make_struct(V{999, 1}, V{0, 999 * 24}, {item, tail});
    EXPECT_TRUE(signatures_match(*good, 1, *good, 1));
    EXPECT_FALSE(signatures_match(*good, 1, *bad, 1));
    // ... but the first 999 items agree.
    EXPECT_TRUE(signatures_match(*good, 1, *make_contiguous(999, item), 1));
    EXPECT_EQ(signature_prefix(*good, 1, 999 * 4 + 3), signature_prefix(*bad, 1, 999 * 4 + 3));
    EXPECT_NE(signature_prefix(*good, 1, 999 * 4 + 4), signature_prefix(*bad, 1, 999 * 4 + 4));

    // MPI_BYTE and MPI_PACKED match anything.
    EXPECT_TRUE(signatures_match(*T(PrimitiveId::kBYTE), 12, *vec3, 1));
    EXPECT_TRUE(signatures_match(*vec3, 1, *T(PrimitiveId::kPACKED), 12));

    // Huge counts cost nothing: 1e15 ints as 1e8 x 1e7.
    const auto e7 = make_contiguous(10'000'000, i);
    EXPECT_TRUE(signatures_match(*e7, 100'000'000, *i, 1'000'000'000'000'000));
    EXPECT_FALSE(signatures_match(*e7, 100'000'000, *T(PrimitiveId::kUNSIGNED), 1'000'000'000'000'000));
}

TEST(DatatypeSinglePrimitive, HomogeneousTypes) {
    EXPECT_EQ(make_vector(3, 2, 5, T(INT))->single_primitive(), INT);
    EXPECT_EQ(make_struct(V{1, 2}, V{0, 8}, {T(INT), make_contiguous(2, T(INT))})->single_primitive(), INT);
    EXPECT_FALSE(make_struct(V{1, 1}, V{0, 8}, {T(INT), T(DOUBLE)})->single_primitive().has_value());
    EXPECT_FALSE(make_contiguous(0, T(INT))->single_primitive().has_value());
    EXPECT_EQ(make_contiguous(4, T(PrimitiveId::kDOUBLE_INT))->single_primitive(), PrimitiveId::kDOUBLE_INT);
    EXPECT_TRUE(make_struct(V{1, 1}, V{0, 4}, {T(INT), T(PrimitiveId::kBYTE)})->has_byte_or_packed());
    EXPECT_FALSE(make_contiguous(4, T(INT))->has_byte_or_packed());
}

TEST(DatatypeVisitor, RunsAreMergedAcrossBackToBackItems) {
    const auto big = make_contiguous(100'000'000, T(INT));
    std::vector<std::tuple<const void*, PrimitiveId, std::int64_t>> runs;
    const int* base = reinterpret_cast<const int*>(std::uintptr_t{4096});  // never dereferenced
    for_each_primitive_run(static_cast<const void*>(base), 3, *big,
                           [&](const void* p, PrimitiveId id, std::int64_t n) { runs.emplace_back(p, id, n); });
    ASSERT_EQ(runs.size(), 1u);
    EXPECT_EQ(std::get<0>(runs[0]), static_cast<const void*>(base));
    EXPECT_EQ(std::get<1>(runs[0]), INT);
    EXPECT_EQ(std::get<2>(runs[0]), 300'000'000);
}

TEST(DatatypeVisitor, TypedReductionOverDerivedLayout) {
    // inout[i] += in[i] over a vector of doubles and a struct, as a reduction would.
    const auto vec = make_vector(3, 1, 2, T(DOUBLE));
    double in[5] = {1, 100, 2, 100, 3};
    double inout[5] = {10, -1, 20, -1, 30};
    std::vector<std::int64_t> offsets;
    for_each_primitive_run_offset(1, *vec, [&](std::int64_t mem, std::int64_t packed, PrimitiveId id,
                                               std::int64_t n) {
        ASSERT_EQ(id, DOUBLE);
        offsets.push_back(packed);
        auto* a = reinterpret_cast<const unsigned char*>(in) + mem;
        auto* b = reinterpret_cast<unsigned char*>(inout) + mem;
        for (std::int64_t k = 0; k < n; ++k)
            reinterpret_cast<double*>(b)[k] += reinterpret_cast<const double*>(a)[k];
    });
    EXPECT_EQ(offsets, (std::vector<std::int64_t>{0, 8, 16}));
    EXPECT_EQ(inout[0], 11);
    EXPECT_EQ(inout[1], -1);
    EXPECT_EQ(inout[4], 33);

    struct S { int i; double d; };
    const auto st = make_struct(V{1, 1}, V{0, 8}, {T(INT), T(DOUBLE)});
    S s[2] = {{1, 1.5}, {2, 2.5}};
    std::vector<std::tuple<void*, PrimitiveId, std::int64_t>> runs;
    for_each_primitive_run(static_cast<void*>(s), 2, *st,
                           [&](void* p, PrimitiveId id, std::int64_t n) { runs.emplace_back(p, id, n); });
    ASSERT_EQ(runs.size(), 4u);
    EXPECT_EQ(std::get<0>(runs[2]), static_cast<void*>(&s[1].i));
    EXPECT_EQ(std::get<1>(runs[3]), DOUBLE);
    EXPECT_EQ(std::get<0>(runs[3]), static_cast<void*>(&s[1].d));

    // Pair types: runs of whole {value, index} structs at sizeof() spacing.
    DoubleInt p[4] = {};
    std::vector<std::tuple<void*, PrimitiveId, std::int64_t>> pruns;
    for_each_primitive_run(static_cast<void*>(p), 4, *T(PrimitiveId::kDOUBLE_INT),
                           [&](void* ptr, PrimitiveId id, std::int64_t n) { pruns.emplace_back(ptr, id, n); });
    ASSERT_EQ(pruns.size(), 1u);
    EXPECT_EQ(std::get<1>(pruns[0]), PrimitiveId::kDOUBLE_INT);
    EXPECT_EQ(std::get<2>(pruns[0]), 4);

    EXPECT_THROW(for_each_primitive_run_offset(-1, *st, [](std::int64_t, std::int64_t, PrimitiveId, std::int64_t) {}),
                 DatatypeError);
}

}  // namespace
}  // namespace progsim::dt
