// Datatype engine: predefined types, constructors (sizes, bounds, true
// bounds, layout compactness), errors, envelope/contents.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <vector>

#include "datatype/Datatype.hpp"
#include "datatype/DatatypeError.hpp"
#include "datatype/PairTypes.hpp"
#include "datatype/PrimitiveType.hpp"
#include "datatype/TypeConstructors.hpp"

namespace progsim::dt {
namespace {

using V = std::vector<std::int64_t>;

DatatypePtr T(PrimitiveId id) { return predefined(id); }

// Expects that `fn` throws DatatypeError with class `cls`.
template <class F>
void expect_error(ErrorClass cls, F&& fn) {
    try {
        fn();
        ADD_FAILURE() << "no DatatypeError thrown";
    } catch (const DatatypeError& e) {
        EXPECT_EQ(e.error_class(), cls) << e.what();
    }
}

std::vector<std::pair<std::int64_t, std::int64_t>> segments(const Datatype& t) {
    std::vector<std::pair<std::int64_t, std::int64_t>> out;
    t.for_each_segment([&](std::int64_t off, std::int64_t len) { out.emplace_back(off, len); });
    return out;
}

using Segs = std::vector<std::pair<std::int64_t, std::int64_t>>;

TEST(DatatypePredefined, IndexLookupMatchesDefFile) {
    EXPECT_EQ(primitive_from_index(8), PrimitiveId::kINT);
    EXPECT_EQ(primitive_from_index(15), PrimitiveId::kDOUBLE);
    EXPECT_EQ(primitive_from_index(40), PrimitiveId::k2INT);
    EXPECT_FALSE(primitive_from_index(0).has_value());
    EXPECT_FALSE(primitive_from_index(kMaxPrimitiveIndex + 1).has_value());
    EXPECT_FALSE(primitive_from_index(-1).has_value());
    EXPECT_EQ(kMaxPrimitiveIndex, 62);
    expect_error(ErrorClass::Type, [] { primitive_info(PrimitiveId::kNone); });
    expect_error(ErrorClass::Type, [] { predefined(PrimitiveId::kNone); });
}

TEST(DatatypePredefined, EveryTypeIsConsistent) {
    int n = 0;
    for (int index = 1; index <= kMaxPrimitiveIndex; ++index) {
        const auto id = primitive_from_index(index);
        ASSERT_TRUE(id.has_value()) << index;
        ++n;
        const PrimitiveInfo& info = primitive_info(*id);
        const DatatypePtr t = predefined(*id);
        EXPECT_EQ(t, predefined(*id)) << "predefined types are shared singletons";
        EXPECT_EQ(info.id, *id);
        EXPECT_EQ(std::strncmp(info.name, "MPI_", 4), 0);
        EXPECT_STREQ(t->name(), info.name);
        EXPECT_TRUE(t->is_predefined());
        EXPECT_EQ(t->predefined_id(), *id);
        EXPECT_EQ(t->combiner(), Combiner::Named);
        EXPECT_EQ(t->envelope().num_integers + t->envelope().num_addresses + t->envelope().num_datatypes, 0);
        EXPECT_EQ(t->size(), info.size);
        EXPECT_EQ(t->lb(), 0);
        EXPECT_EQ(t->extent(), info.extent);
        EXPECT_EQ(t->true_lb(), 0);
        EXPECT_EQ(t->alignment(), info.alignment);
        EXPECT_EQ(t->single_primitive(), *id);
        EXPECT_EQ(t->num_elements(), info.type_class == TypeClass::Pair ? 2 : 1);
        if (info.type_class != TypeClass::Pair) {
            EXPECT_EQ(info.size, info.extent) << info.name;
            EXPECT_TRUE(t->is_dense()) << info.name;
            EXPECT_EQ(t->true_extent(), info.size);
            EXPECT_EQ(info.value_id, *id);
        }
    }
    EXPECT_EQ(n, 62);
    EXPECT_STREQ(predefined(PrimitiveId::kINT)->name(), "MPI_INT");
    EXPECT_STREQ(predefined(PrimitiveId::k2INT)->name(), "MPI_2INT");
}

TEST(DatatypePredefined, SizesAlignmentsAndExternal32) {
    EXPECT_EQ(primitive_info(PrimitiveId::kCHAR).size, 1);
    EXPECT_EQ(primitive_info(PrimitiveId::kINT).size, 4);
    EXPECT_EQ(primitive_info(PrimitiveId::kDOUBLE).alignment, alignof(double));
    EXPECT_EQ(primitive_info(PrimitiveId::kLONG_DOUBLE).size, static_cast<std::int64_t>(sizeof(long double)));
    EXPECT_EQ(primitive_info(PrimitiveId::kC_DOUBLE_COMPLEX).size, 16);
    EXPECT_EQ(primitive_info(PrimitiveId::kINT).type_class, TypeClass::SignedInt);
    EXPECT_EQ(primitive_info(PrimitiveId::kPACKED).type_class, TypeClass::Packed);
    EXPECT_EQ(primitive_info(PrimitiveId::kLONG).external32_size, 4);
    EXPECT_EQ(primitive_info(PrimitiveId::kWCHAR).external32_size, 2);
    EXPECT_EQ(primitive_info(PrimitiveId::kLONG_DOUBLE).external32_size, 16);
    EXPECT_EQ(primitive_info(PrimitiveId::kC_LONG_DOUBLE_COMPLEX).external32_size, 32);
    EXPECT_EQ(primitive_info(PrimitiveId::kDOUBLE_INT).external32_size, 12);
    EXPECT_EQ(primitive_info(PrimitiveId::kLONG_INT).external32_size, 8);
}

TEST(DatatypePredefined, PairTypesHaveStructLayout) {
    const auto di = T(PrimitiveId::kDOUBLE_INT);
    EXPECT_EQ(di->size(), 12);
    EXPECT_EQ(di->extent(), static_cast<std::int64_t>(sizeof(DoubleInt)));
    EXPECT_EQ(di->true_extent(), 12);
    EXPECT_TRUE(di->is_contiguous());
    EXPECT_FALSE(di->is_dense());
    EXPECT_EQ(di->num_elements(), 2);
    const PrimitiveInfo& info = primitive_info(PrimitiveId::kDOUBLE_INT);
    EXPECT_EQ(info.value_id, PrimitiveId::kDOUBLE);
    EXPECT_EQ(info.index_id, PrimitiveId::kINT);
    EXPECT_EQ(info.index_offset, static_cast<std::int64_t>(offsetof(DoubleInt, index)));

    const auto si = T(PrimitiveId::kSHORT_INT);  // {short; int;}: a hole after the short
    EXPECT_EQ(si->size(), 6);
    EXPECT_EQ(si->extent(), 8);
    EXPECT_EQ(si->true_extent(), 8);
    EXPECT_FALSE(si->is_contiguous());
    EXPECT_EQ(segments(*si), (Segs{{0, 2}, {4, 4}}));

    EXPECT_TRUE(T(PrimitiveId::k2INT)->is_dense());
    EXPECT_EQ(T(PrimitiveId::kLONG_DOUBLE_INT)->size(), static_cast<std::int64_t>(sizeof(long double)) + 4);
    EXPECT_EQ(T(PrimitiveId::kLONG_DOUBLE_INT)->extent(), static_cast<std::int64_t>(sizeof(LongDoubleInt)));
    EXPECT_EQ(primitive_info(PrimitiveId::k2DOUBLE_PRECISION).index_id, PrimitiveId::kDOUBLE_PRECISION);
}

TEST(DatatypeContiguous, SizesAndBounds) {
    const auto c = make_contiguous(3, T(PrimitiveId::kINT));
    EXPECT_EQ(c->size(), 12);
    EXPECT_EQ(c->lb(), 0);
    EXPECT_EQ(c->ub(), 12);
    EXPECT_EQ(c->extent(), 12);
    EXPECT_EQ(c->true_extent(), 12);
    EXPECT_EQ(c->num_elements(), 3);
    EXPECT_TRUE(c->is_dense());
    EXPECT_EQ(c->segment_count(), 1);
    EXPECT_EQ(c->single_primitive(), PrimitiveId::kINT);
    EXPECT_FALSE(c->is_predefined());

    const auto empty = make_contiguous(0, T(PrimitiveId::kINT));
    EXPECT_EQ(empty->size(), 0);
    EXPECT_EQ(empty->extent(), 0);
    EXPECT_EQ(empty->true_extent(), 0);
    EXPECT_EQ(empty->num_elements(), 0);
    EXPECT_EQ(empty->segment_count(), 0);
    EXPECT_FALSE(empty->single_primitive().has_value());

    // Contiguous of a pair type: 16-byte elements with 4 bytes of padding.
    const auto pairs = make_contiguous(4, T(PrimitiveId::kDOUBLE_INT));
    EXPECT_EQ(pairs->size(), 48);
    EXPECT_EQ(pairs->extent(), 64);
    EXPECT_EQ(pairs->true_extent(), 60);
    EXPECT_EQ(pairs->segment_count(), 4);
    EXPECT_EQ(pairs->byte_layout().nodes.size(), 1u);
    EXPECT_EQ(pairs->typed_layout().nodes.size(), 1u);
    EXPECT_EQ(pairs->typed_layout().nodes[0].nprim, 4);
}

TEST(DatatypeContiguous, HundredMillionElementsIsOneSegment) {
    const auto big = make_contiguous(100'000'000, T(PrimitiveId::kINT));
    EXPECT_EQ(big->size(), 400'000'000);
    EXPECT_EQ(big->num_elements(), 100'000'000);
    EXPECT_EQ(big->segment_count(), 1);
    EXPECT_EQ(big->byte_layout().nodes.size(), 1u);
    EXPECT_EQ(big->typed_layout().nodes.size(), 1u);
    EXPECT_TRUE(big->is_dense());
    // Nesting keeps it one run: 1e8 x 1e8 ints = 4e16 bytes.
    const auto huge = make_contiguous(100'000'000, big);
    EXPECT_EQ(huge->size(), 40'000'000'000'000'000);
    EXPECT_EQ(huge->segment_count(), 1);
    // A strided vector of 1e8 blocks is one strided node, not 1e8 entries.
    const auto vec = make_vector(100'000'000, 1, 2, T(PrimitiveId::kINT));
    EXPECT_EQ(vec->segment_count(), 100'000'000);
    EXPECT_EQ(vec->byte_layout().nodes.size(), 1u);
    EXPECT_EQ(vec->typed_layout().nodes.size(), 1u);
    // And so is a vector of a non-contiguous struct.
    const auto st = make_struct(V{1, 1}, V{0, 8}, {T(PrimitiveId::kCHAR), T(PrimitiveId::kDOUBLE)});
    const auto vs = make_vector(100'000'000, 3, 4, st);
    EXPECT_EQ(vs->segment_count(), 600'000'000);
    EXPECT_LE(vs->byte_layout().nodes.size(), 2u);
    expect_error(ErrorClass::Other, [&] { make_contiguous(INT64_MAX / 2, vec); });
}

TEST(DatatypeVector, PositiveAndNegativeStrides) {
    const auto v = make_vector(3, 2, 4, T(PrimitiveId::kINT));  // ints 0,1 4,5 8,9
    EXPECT_EQ(v->size(), 24);
    EXPECT_EQ(v->lb(), 0);
    EXPECT_EQ(v->extent(), 40);
    EXPECT_EQ(v->true_extent(), 40);
    EXPECT_FALSE(v->is_contiguous());
    EXPECT_EQ(segments(*v), (Segs{{0, 8}, {16, 8}, {32, 8}}));

    const auto n = make_vector(3, 1, -2, T(PrimitiveId::kINT));  // ints 0, -2, -4
    EXPECT_EQ(n->lb(), -16);
    EXPECT_EQ(n->ub(), 4);
    EXPECT_EQ(n->extent(), 20);
    EXPECT_EQ(n->true_lb(), -16);
    EXPECT_EQ(n->true_extent(), 20);
    EXPECT_EQ(segments(*n), (Segs{{0, 4}, {-8, 4}, {-16, 4}}));

    // stride == blocklength: contiguous.
    const auto c = make_vector(5, 2, 2, T(PrimitiveId::kDOUBLE));
    EXPECT_TRUE(c->is_dense());
    EXPECT_EQ(c->size(), 80);

    const auto h = make_hvector(2, 3, 32, T(PrimitiveId::kDOUBLE));
    EXPECT_EQ(h->size(), 48);
    EXPECT_EQ(h->extent(), 56);
    EXPECT_EQ(segments(*h), (Segs{{0, 24}, {32, 24}}));

    const auto z = make_vector(0, 3, 4, T(PrimitiveId::kINT));
    EXPECT_EQ(z->size(), 0);
    EXPECT_EQ(z->extent(), 0);
}

TEST(DatatypeIndexed, DisplacementsKeepTypemapOrder) {
    const auto t = make_indexed(V{2, 1}, V{3, 0}, T(PrimitiveId::kINT));
    EXPECT_EQ(t->size(), 12);
    EXPECT_EQ(t->lb(), 0);
    EXPECT_EQ(t->ub(), 20);
    EXPECT_EQ(segments(*t), (Segs{{12, 8}, {0, 4}}));  // typemap order, not memory order

    const auto neg = make_indexed(V{1, 1}, V{-2, 1}, T(PrimitiveId::kINT));
    EXPECT_EQ(neg->lb(), -8);
    EXPECT_EQ(neg->ub(), 8);
    EXPECT_EQ(neg->extent(), 16);
    EXPECT_EQ(neg->true_lb(), -8);
    EXPECT_EQ(neg->true_ub(), 8);

    const auto h = make_hindexed(V{1, 2}, V{-4, 8}, T(PrimitiveId::kINT));
    EXPECT_EQ(h->lb(), -4);
    EXPECT_EQ(h->ub(), 16);
    EXPECT_EQ(h->size(), 12);

    const auto adjacent = make_indexed(V{1, 2, 1}, V{0, 1, 3}, T(PrimitiveId::kINT));
    EXPECT_TRUE(adjacent->is_dense());

    const auto zero_blocks = make_indexed(V{0, 2, 0}, V{-100, 1, 100}, T(PrimitiveId::kINT));
    EXPECT_EQ(zero_blocks->lb(), 4);  // zero-length blocks are no typemap entries
    EXPECT_EQ(zero_blocks->ub(), 12);

    const auto ib = make_indexed_block(2, V{4, 0, 10}, T(PrimitiveId::kSHORT));
    EXPECT_EQ(ib->size(), 12);
    EXPECT_EQ(ib->lb(), 0);
    EXPECT_EQ(ib->ub(), 24);
    EXPECT_EQ(segments(*ib), (Segs{{8, 4}, {0, 4}, {20, 4}}));

    const auto hb = make_hindexed_block(1, V{-8, 8, 24}, T(PrimitiveId::kDOUBLE));
    EXPECT_EQ(hb->lb(), -8);
    EXPECT_EQ(hb->ub(), 32);
    EXPECT_EQ(hb->segment_count(), 3);
    EXPECT_EQ(hb->byte_layout().nodes.size(), 1u) << "equal blocks at a regular stride fold into one node";
}

TEST(DatatypeStruct, ExtentIsPaddedToAlignment) {
    struct CharDouble { char c; double d; };
    const auto cd = make_struct(V{1, 1}, V{0, static_cast<std::int64_t>(offsetof(CharDouble, d))},
                                {T(PrimitiveId::kCHAR), T(PrimitiveId::kDOUBLE)});
    EXPECT_EQ(cd->size(), 9);
    EXPECT_EQ(cd->extent(), 16);
    EXPECT_EQ(cd->extent(), static_cast<std::int64_t>(sizeof(CharDouble)));
    EXPECT_EQ(cd->true_extent(), 16);
    EXPECT_EQ(cd->alignment(), static_cast<std::int64_t>(alignof(double)));

    // {double; char;}: data ends at 9, the epsilon rounds the extent to 16,
    // the true extent ignores it (MPI-4.1 §5.1.6, §5.1.8).
    const auto dc = make_struct(V{1, 1}, V{0, 8}, {T(PrimitiveId::kDOUBLE), T(PrimitiveId::kCHAR)});
    EXPECT_EQ(dc->extent(), 16);
    EXPECT_EQ(dc->true_extent(), 9);
    EXPECT_EQ(make_contiguous(2, dc)->extent(), 32);
    EXPECT_EQ(make_contiguous(2, dc)->true_extent(), 25);

    const auto ic = make_struct(V{1, 1}, V{0, 4}, {T(PrimitiveId::kINT), T(PrimitiveId::kCHAR)});
    EXPECT_EQ(ic->extent(), 8);
    const auto cc = make_struct(V{1, 2}, V{0, 1}, {T(PrimitiveId::kCHAR), T(PrimitiveId::kCHAR)});
    EXPECT_EQ(cc->extent(), 3);
    EXPECT_TRUE(cc->is_dense());

    // Negative displacement: lb -4, data ends at 1, extent 5 rounded to 8.
    const auto neg = make_struct(V{1, 1}, V{-4, 0}, {T(PrimitiveId::kINT), T(PrimitiveId::kCHAR)});
    EXPECT_EQ(neg->lb(), -4);
    EXPECT_EQ(neg->ub(), 4);
    EXPECT_EQ(neg->true_ub(), 1);

    // A zero-length block neither moves the bounds nor the alignment.
    const auto zero = make_struct(V{1, 0}, V{0, 100}, {T(PrimitiveId::kINT), T(PrimitiveId::kDOUBLE)});
    EXPECT_EQ(zero->extent(), 4);

    // Nested struct keeps its padding; the outer one pads again.
    const auto nested = make_struct(V{1, 1}, V{0, 16}, {dc, T(PrimitiveId::kCHAR)});
    EXPECT_EQ(nested->extent(), 24);
    EXPECT_EQ(nested->size(), 10);
    EXPECT_FALSE(nested->single_primitive().has_value());
}

TEST(DatatypeResized, ExplicitBoundsAndTrueExtent) {
    const auto r = make_resized(T(PrimitiveId::kINT), -4, 12);
    EXPECT_EQ(r->lb(), -4);
    EXPECT_EQ(r->ub(), 8);
    EXPECT_EQ(r->extent(), 12);
    EXPECT_EQ(r->size(), 4);
    EXPECT_EQ(r->true_lb(), 0);
    EXPECT_EQ(r->true_extent(), 4);
    EXPECT_TRUE(r->has_explicit_bounds());
    EXPECT_TRUE(r->is_contiguous());
    EXPECT_FALSE(r->is_dense());
    EXPECT_FALSE(r->is_predefined());

    const auto c = make_contiguous(2, r);  // ints at 0 and 12
    EXPECT_EQ(c->lb(), -4);
    EXPECT_EQ(c->ub(), 20);
    EXPECT_EQ(c->extent(), 24);
    EXPECT_EQ(c->true_lb(), 0);
    EXPECT_EQ(c->true_ub(), 16);
    EXPECT_EQ(segments(*c), (Segs{{0, 4}, {12, 4}}));

    EXPECT_TRUE(make_resized(T(PrimitiveId::kINT), 0, 4)->is_dense());
    const auto neg = make_resized(T(PrimitiveId::kDOUBLE), 8, -8);
    EXPECT_EQ(neg->lb(), 8);
    EXPECT_EQ(neg->extent(), -8);

    // Resized members: no struct padding, and only their (sticky) bounds
    // count (MPI-4.1 §5.1.7): the double at 16 lies outside [lb, ub).
    const auto r9 = make_resized(T(PrimitiveId::kDOUBLE), 0, 9);
    const auto s = make_struct(V{1}, V{0}, {r9});
    EXPECT_EQ(s->extent(), 9);
    const auto sticky = make_struct(V{1, 1}, V{0, 16}, {make_resized(T(PrimitiveId::kINT), 0, 8),
                                                        T(PrimitiveId::kDOUBLE)});
    EXPECT_EQ(sticky->lb(), 0);
    EXPECT_EQ(sticky->ub(), 8);
    EXPECT_EQ(sticky->true_ub(), 24);
    EXPECT_TRUE(sticky->has_explicit_bounds());

    // Resizing a resized type replaces its bounds.
    const auto rr = make_resized(r, 0, 32);
    EXPECT_EQ(rr->lb(), 0);
    EXPECT_EQ(rr->extent(), 32);
    EXPECT_EQ(rr->true_extent(), 4);
}

TEST(DatatypeDup, SameTypeNewEnvelope) {
    const auto v = make_vector(3, 2, 4, T(PrimitiveId::kINT));
    const auto d = make_dup(v);
    EXPECT_EQ(d->size(), v->size());
    EXPECT_EQ(d->extent(), v->extent());
    EXPECT_EQ(d->signature(), v->signature());
    EXPECT_EQ(d->combiner(), Combiner::Dup);
    ASSERT_EQ(d->contents().datatypes.size(), 1u);
    EXPECT_EQ(d->contents().datatypes[0], v);

    const auto di = make_dup(T(PrimitiveId::kINT));
    EXPECT_FALSE(di->is_predefined());
    EXPECT_STREQ(di->name(), "");
    EXPECT_EQ(di->single_primitive(), PrimitiveId::kINT);
    EXPECT_TRUE(di->is_dense());
}

TEST(DatatypeErrors, InvalidArgumentsAreReportedWithTheirClass) {
    const auto i = T(PrimitiveId::kINT);
    expect_error(ErrorClass::Count, [&] { make_contiguous(-1, i); });
    expect_error(ErrorClass::Type, [&] { make_contiguous(1, nullptr); });
    expect_error(ErrorClass::Count, [&] { make_vector(-2, 1, 1, i); });
    expect_error(ErrorClass::Arg, [&] { make_vector(2, -1, 1, i); });
    expect_error(ErrorClass::Arg, [&] { make_hvector(2, -1, 8, i); });
    expect_error(ErrorClass::Arg, [&] { make_indexed(V{1, -1}, V{0, 2}, i); });
    expect_error(ErrorClass::Arg, [&] { make_indexed(V{1, 1}, V{0}, i); });
    expect_error(ErrorClass::Arg, [&] { make_hindexed_block(-3, V{0}, i); });
    expect_error(ErrorClass::Type, [&] { make_struct(V{1, 1}, V{0, 4}, {i, nullptr}); });
    expect_error(ErrorClass::Arg, [&] { make_struct(V{1, 1}, V{0, 4}, {i}); });
    expect_error(ErrorClass::Type, [&] { make_resized(nullptr, 0, 4); });
    expect_error(ErrorClass::Type, [&] { make_dup(nullptr); });
    // The pointer overloads used by the C bindings.
    const int bl[] = {1, 2};
    const int disp[] = {0, 3};
    expect_error(ErrorClass::Count, [&] { make_indexed(-1, bl, disp, i); });
    expect_error(ErrorClass::Arg, [&] { make_indexed(2, bl, static_cast<const int*>(nullptr), i); });
    EXPECT_EQ(make_indexed(2, bl, disp, i)->size(), 12);
    EXPECT_EQ(make_indexed(0, static_cast<const int*>(nullptr), static_cast<const int*>(nullptr), i)->size(), 0);
    try {
        make_contiguous(-5, i);
    } catch (const DatatypeError& e) {
        EXPECT_EQ(static_cast<int>(e.error_class()), 2);  // MPI_ERR_COUNT
        EXPECT_NE(std::string(e.what()).find("-5"), std::string::npos);
    }
}

// Rebuilds a type from its envelope and contents, as a user of
// MPI_Type_get_contents would.
DatatypePtr rebuild(const Datatype& t) {
    const Contents& c = t.contents();
    const auto& i = c.integers;
    const auto& a = c.addresses;
    const auto& d = c.datatypes;
    const auto n = [&](std::size_t k) { return static_cast<std::size_t>(i[k]); };
    switch (t.combiner()) {
        case Combiner::Dup: return make_dup(d[0]);
        case Combiner::Contiguous: return make_contiguous(i[0], d[0]);
        case Combiner::Vector: return make_vector(i[0], i[1], i[2], d[0]);
        case Combiner::Hvector: return make_hvector(i[0], i[1], a[0], d[0]);
        case Combiner::Indexed:
            return make_indexed(V(i.begin() + 1, i.begin() + 1 + n(0)), V(i.begin() + 1 + n(0), i.end()), d[0]);
        case Combiner::Hindexed: return make_hindexed(V(i.begin() + 1, i.end()), a, d[0]);
        case Combiner::IndexedBlock: return make_indexed_block(i[1], V(i.begin() + 2, i.end()), d[0]);
        case Combiner::HindexedBlock: return make_hindexed_block(i[1], a, d[0]);
        case Combiner::Struct: return make_struct(V(i.begin() + 1, i.end()), a, d);
        case Combiner::Resized: return make_resized(d[0], a[0], a[1]);
        case Combiner::Subarray: {
            const std::size_t k = n(0);
            return make_subarray(V(i.begin() + 1, i.begin() + 1 + k), V(i.begin() + 1 + k, i.begin() + 1 + 2 * k),
                                 V(i.begin() + 1 + 2 * k, i.begin() + 1 + 3 * k), static_cast<Order>(i[1 + 3 * k]),
                                 d[0]);
        }
        case Combiner::Darray: {
            const std::size_t k = n(2);
            std::vector<Distribution> dist;
            for (std::size_t j = 0; j < k; ++j) dist.push_back(static_cast<Distribution>(i[3 + k + j]));
            return make_darray(i[0], i[1], V(i.begin() + 3, i.begin() + 3 + k), dist,
                               V(i.begin() + 3 + 2 * k, i.begin() + 3 + 3 * k),
                               V(i.begin() + 3 + 3 * k, i.begin() + 3 + 4 * k), static_cast<Order>(i[3 + 4 * k]),
                               d[0]);
        }
        case Combiner::Named: break;
    }
    return nullptr;
}

TEST(DatatypeEnvelope, ContentsFollowTheStandardLayout) {
    const auto i = T(PrimitiveId::kINT);
    const auto v = make_vector(3, 2, -4, i);
    EXPECT_EQ(v->combiner(), Combiner::Vector);
    EXPECT_EQ(v->contents().integers, (V{3, 2, -4}));
    const Envelope e = v->envelope();
    EXPECT_EQ(e.num_integers, 3);
    EXPECT_EQ(e.num_addresses, 0);
    EXPECT_EQ(e.num_datatypes, 1);

    const auto h = make_hvector(2, 1, 24, i);
    EXPECT_EQ(h->contents().integers, (V{2, 1}));
    EXPECT_EQ(h->contents().addresses, (V{24}));

    const auto ix = make_indexed(V{2, 1}, V{3, 0}, i);
    EXPECT_EQ(ix->contents().integers, (V{2, 2, 1, 3, 0}));
    const auto hx = make_hindexed(V{2, 1}, V{12, -8}, i);
    EXPECT_EQ(hx->contents().integers, (V{2, 2, 1}));
    EXPECT_EQ(hx->contents().addresses, (V{12, -8}));
    const auto ib = make_indexed_block(3, V{0, 7}, i);
    EXPECT_EQ(ib->contents().integers, (V{2, 3, 0, 7}));
    const auto hb = make_hindexed_block(3, V{0, 40}, i);
    EXPECT_EQ(hb->contents().integers, (V{2, 3}));
    EXPECT_EQ(hb->contents().addresses, (V{0, 40}));
    const auto st = make_struct(V{1, 2}, V{0, 8}, {T(PrimitiveId::kCHAR), T(PrimitiveId::kDOUBLE)});
    EXPECT_EQ(st->contents().integers, (V{2, 1, 2}));
    EXPECT_EQ(st->contents().addresses, (V{0, 8}));
    EXPECT_EQ(st->contents().datatypes.size(), 2u);
    EXPECT_EQ(st->contents().datatypes[1], T(PrimitiveId::kDOUBLE));
    const auto rs = make_resized(st, -8, 64);
    EXPECT_EQ(rs->contents().addresses, (V{-8, 64}));
    EXPECT_EQ(rs->contents().datatypes[0], st);

    const std::vector<DatatypePtr> all = {
        make_contiguous(5, i), v, h, ix, hx, ib, hb, st, rs, make_dup(st),
        make_subarray(V{4, 5}, V{2, 3}, V{1, 2}, Order::Fortran, i),
        make_darray(4, 3, V{4, 6}, {Distribution::Block, Distribution::Cyclic}, V{kDistributeDefaultDarg, 2},
                    V{2, 2}, Order::C, i)};
    for (const auto& t : all) {
        const auto again = rebuild(*t);
        ASSERT_NE(again, nullptr);
        EXPECT_EQ(again->combiner(), t->combiner());
        EXPECT_EQ(again->contents().integers, t->contents().integers);
        EXPECT_EQ(again->contents().addresses, t->contents().addresses);
        EXPECT_EQ(again->contents().datatypes, t->contents().datatypes);
        EXPECT_EQ(again->size(), t->size());
        EXPECT_EQ(again->lb(), t->lb());
        EXPECT_EQ(again->extent(), t->extent());
        EXPECT_EQ(again->true_lb(), t->true_lb());
        EXPECT_EQ(again->true_extent(), t->true_extent());
        EXPECT_EQ(again->signature(), t->signature());
        EXPECT_EQ(segments(*again), segments(*t));
    }
}

TEST(DatatypeLayout, NestedTypesStayCompact) {
    const auto row = make_contiguous(1000, T(PrimitiveId::kDOUBLE));
    const auto col = make_vector(1000, 1, 1000, T(PrimitiveId::kDOUBLE));
    EXPECT_EQ(col->byte_layout().nodes.size(), 1u);
    // 1000 columns side by side, via a resized column: a strided node of a
    // strided node.
    const auto col1 = make_resized(col, 0, 8);
    const auto cols = make_contiguous(1000, col1);
    EXPECT_EQ(cols->segment_count(), 1'000'000);
    EXPECT_LE(cols->byte_layout().nodes.size(), 2u);
    EXPECT_EQ(cols->size(), 8'000'000);
    EXPECT_EQ(row->segment_count(), 1);
    // Contiguous items of a vector are one strided node when the strides line up.
    const auto v = make_vector(2, 1, 2, T(PrimitiveId::kINT));   // ints 0, 2; extent 12
    const auto r = make_resized(v, 0, 16);                      // next item at 16 = 4 ints
    const auto c = make_contiguous(1000, r);
    EXPECT_EQ(c->byte_layout().nodes.size(), 1u);
    EXPECT_EQ(c->segment_count(), 2000);
}

TEST(DatatypeLayout, IndexedOfALargeStructReferencesIt) {
    // A struct of 20 separated fields, used by 1000 regularly spaced blocks:
    // the blocks share the struct's layout instead of copying 20 runs each.
    V lengths(20, 1), disps;
    std::vector<DatatypePtr> types;
    for (int k = 0; k < 20; ++k) {
        disps.push_back(16 * k);
        types.push_back(T(k % 2 ? PrimitiveId::kINT : PrimitiveId::kDOUBLE));
    }
    const auto st = make_struct(lengths, disps, types);
    EXPECT_EQ(st->size(), 10 * 8 + 10 * 4);
    V at;
    for (int k = 0; k < 1000; ++k) at.push_back(3 * k);
    const auto ib = make_indexed_block(1, at, st);
    EXPECT_EQ(ib->segment_count(), 20 * 1000);
    EXPECT_EQ(ib->byte_layout().nodes.size(), 1u);
    EXPECT_EQ(ib->typed_layout().nodes.size(), 1u);
    EXPECT_EQ(ib->size(), 1000 * st->size());
    EXPECT_EQ(ib->extent(), 999 * 3 * st->extent() + st->extent());
}

}  // namespace
}  // namespace progsim::dt
