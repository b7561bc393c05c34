// Datatype engine: subarray (MPI-4.1 §5.1.3) and darray (§5.1.4), checked
// against element-by-element reference selections.
#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <numeric>
#include <vector>

#include "datatype/DatatypeError.hpp"
#include "datatype/Pack.hpp"
#include "datatype/TypeConstructors.hpp"

namespace progsim::dt {
namespace {

using V = std::vector<std::int64_t>;

DatatypePtr INT() { return predefined(PrimitiveId::kINT); }

// Packs one item of `t` over an int array whose element k holds k.
std::vector<int> pack_ints(const Datatype& t, std::size_t array_elems) {
    std::vector<int> a(array_elems);
    std::iota(a.begin(), a.end(), 0);
    std::vector<int> out(static_cast<std::size_t>(t.size()) / sizeof(int));
    std::size_t pos = 0;
    pack(a.data(), 1, t, reinterpret_cast<std::byte*>(out.data()), out.size() * sizeof(int), pos);
    EXPECT_EQ(pos, out.size() * sizeof(int));
    return out;
}

// Linear index of a multi-index in an array of `sizes` in `order`.
std::int64_t linear(const V& idx, const V& sizes, Order order) {
    std::int64_t k = 0;
    if (order == Order::C) {
        for (std::size_t d = 0; d < sizes.size(); ++d) k = k * sizes[d] + idx[d];
    } else {
        for (std::size_t d = sizes.size(); d-- > 0;) k = k * sizes[d] + idx[d];
    }
    return k;
}

// Visits every multi-index of `sizes` in memory order of `order`.
void for_each_index(const V& sizes, Order order, const std::function<void(const V&)>& fn) {
    const std::size_t n = sizes.size();
    V idx(n, 0);
    while (true) {
        fn(idx);
        std::size_t k = 0;
        for (; k < n; ++k) {
            const std::size_t d = order == Order::C ? n - 1 - k : k;
            if (++idx[d] < sizes[d]) break;
            idx[d] = 0;
        }
        if (k == n) return;
    }
}

TEST(DatatypeSubarray, COrder2D) {
    // 4 x 5 ints, rows 1-2, columns 2-4.
    const auto t = make_subarray(V{4, 5}, V{2, 3}, V{1, 2}, Order::C, INT());
    EXPECT_EQ(t->size(), 24);
    EXPECT_EQ(t->lb(), 0);
    EXPECT_EQ(t->extent(), 80);
    EXPECT_EQ(t->true_lb(), (1 * 5 + 2) * 4);
    EXPECT_EQ(t->true_ub(), (2 * 5 + 4 + 1) * 4);
    EXPECT_TRUE(t->has_explicit_bounds());
    EXPECT_EQ(t->combiner(), Combiner::Subarray);
    EXPECT_EQ(t->contents().integers, (V{2, 4, 5, 2, 3, 1, 2, static_cast<std::int64_t>(Order::C)}));
    EXPECT_EQ(pack_ints(*t, 20), (std::vector<int>{7, 8, 9, 12, 13, 14}));
    EXPECT_EQ(t->segment_count(), 2);
    EXPECT_EQ(t->byte_layout().nodes.size(), 1u);
}

TEST(DatatypeSubarray, FortranOrder2D) {
    // Fortran 4 x 5: dimension 0 varies fastest; element (i, j) at i + 4 j.
    const auto t = make_subarray(V{4, 5}, V{2, 3}, V{1, 2}, Order::Fortran, INT());
    EXPECT_EQ(t->size(), 24);
    EXPECT_EQ(t->extent(), 80);
    EXPECT_EQ(t->true_lb(), (1 + 4 * 2) * 4);
    EXPECT_EQ(pack_ints(*t, 20), (std::vector<int>{9, 10, 13, 14, 17, 18}));
    EXPECT_EQ(t->segment_count(), 3);
}

TEST(DatatypeSubarray, ThreeDimensionsMatchReference) {
    const V sizes{3, 4, 5}, subsizes{2, 2, 3}, starts{1, 1, 2};
    for (Order order : {Order::C, Order::Fortran}) {
        const auto t = make_subarray(sizes, subsizes, starts, order, INT());
        std::vector<int> expected;
        for_each_index(subsizes, order, [&](const V& sub) {
            V idx(3);
            for (int d = 0; d < 3; ++d) idx[d] = sub[d] + starts[d];
            expected.push_back(static_cast<int>(linear(idx, sizes, order)));
        });
        EXPECT_EQ(pack_ints(*t, 60), expected);
        EXPECT_EQ(t->extent(), 60 * 4);
        EXPECT_LE(t->byte_layout().nodes.size(), 2u);
    }
}

TEST(DatatypeSubarray, ResizedOldTypeAndEmptySubarray) {
    // Elements of extent 8 holding one int each: the stride follows the extent.
    const auto wide = make_resized(INT(), 0, 8);
    const auto t = make_subarray(V{6}, V{2}, V{3}, Order::C, wide);
    EXPECT_EQ(t->extent(), 48);
    EXPECT_EQ(pack_ints(*t, 12), (std::vector<int>{6, 8}));

    const auto empty = make_subarray(V{4, 5}, V{0, 3}, V{4, 0}, Order::C, INT());
    EXPECT_EQ(empty->size(), 0);
    EXPECT_EQ(empty->extent(), 80);
}

TEST(DatatypeSubarray, InvalidArguments) {
    const auto i = INT();
    auto expect_arg = [](auto&& fn) {
        try {
            fn();
            ADD_FAILURE() << "no error";
        } catch (const DatatypeError& e) {
            EXPECT_EQ(e.error_class(), ErrorClass::Arg) << e.what();
        }
    };
    expect_arg([&] { make_subarray(V{}, V{}, V{}, Order::C, i); });
    expect_arg([&] { make_subarray(V{4}, V{5}, V{0}, Order::C, i); });
    expect_arg([&] { make_subarray(V{4}, V{2}, V{3}, Order::C, i); });
    expect_arg([&] { make_subarray(V{4}, V{2}, V{-1}, Order::C, i); });
    expect_arg([&] { make_subarray(V{0}, V{0}, V{0}, Order::C, i); });
    expect_arg([&] { make_subarray(V{4, 4}, V{2}, V{0}, Order::C, i); });
    expect_arg([&] { make_subarray(V{4}, V{2}, V{0}, static_cast<Order>(7), i); });
    const int sizes[] = {4, 5}, subsizes[] = {2, 3}, starts[] = {1, 2};
    EXPECT_EQ(make_subarray(2, sizes, subsizes, starts, static_cast<int>(Order::C), i)->size(), 24);
    expect_arg([&] { make_subarray(0, sizes, subsizes, starts, static_cast<int>(Order::C), i); });
}

// Reference darray: the elements of the global array that `rank` owns, in
// memory order (MPI-4.1 §5.1.4), as linear indices.
std::vector<int> darray_reference(int size, int rank, const V& gsizes, const std::vector<Distribution>& dist,
                                  const V& dargs, const V& psizes, Order order) {
    const std::size_t n = gsizes.size();
    V coords(n);
    for (std::size_t d = n, r = static_cast<std::size_t>(rank); d-- > 0;) {
        coords[d] = static_cast<std::int64_t>(r % static_cast<std::size_t>(psizes[d]));
        r /= static_cast<std::size_t>(psizes[d]);
    }
    (void)size;
    auto owner = [&](std::size_t d, std::int64_t i) -> std::int64_t {
        const std::int64_t p = psizes[d];
        switch (dist[d]) {
            case Distribution::None: return 0;
            case Distribution::Block: {
                const std::int64_t b = dargs[d] == kDistributeDefaultDarg ? (gsizes[d] + p - 1) / p : dargs[d];
                return i / b;
            }
            case Distribution::Cyclic: {
                const std::int64_t b = dargs[d] == kDistributeDefaultDarg ? 1 : dargs[d];
                return (i / b) % p;
            }
        }
        return -1;
    };
    std::vector<int> out;
    for_each_index(gsizes, order, [&](const V& idx) {
        for (std::size_t d = 0; d < n; ++d)
            if (owner(d, idx[d]) != coords[d]) return;
        out.push_back(static_cast<int>(linear(idx, gsizes, order)));
    });
    return out;
}

TEST(DatatypeDarray, BlockBlockEqualsSubarray) {
    // 4 x 6 on a 2 x 2 grid; rank 3 = coordinates (1, 1): rows 2-3, columns 3-5.
    const auto d = make_darray(4, 3, V{4, 6}, {Distribution::Block, Distribution::Block},
                               V{kDistributeDefaultDarg, kDistributeDefaultDarg}, V{2, 2}, Order::C, INT());
    const auto s = make_subarray(V{4, 6}, V{2, 3}, V{2, 3}, Order::C, INT());
    EXPECT_EQ(d->size(), s->size());
    EXPECT_EQ(d->lb(), 0);
    EXPECT_EQ(d->extent(), 96);
    EXPECT_EQ(d->true_lb(), s->true_lb());
    EXPECT_EQ(d->true_extent(), s->true_extent());
    EXPECT_EQ(pack_ints(*d, 24), pack_ints(*s, 24));
    EXPECT_EQ(d->combiner(), Combiner::Darray);
}

TEST(DatatypeDarray, CyclicWithPartialLastBlock) {
    // 7 elements, cyclic(2) over 2 processes: rank 0 owns 0,1,4,5; rank 1 owns 2,3,6.
    const auto r0 = make_darray(2, 0, V{7}, {Distribution::Cyclic}, V{2}, V{2}, Order::C, INT());
    const auto r1 = make_darray(2, 1, V{7}, {Distribution::Cyclic}, V{2}, V{2}, Order::C, INT());
    EXPECT_EQ(pack_ints(*r0, 7), (std::vector<int>{0, 1, 4, 5}));
    EXPECT_EQ(pack_ints(*r1, 7), (std::vector<int>{2, 3, 6}));
    EXPECT_EQ(r1->extent(), 28);
    EXPECT_EQ(r1->lb(), 0);
}

TEST(DatatypeDarray, MatchesReferenceForMixedDistributions) {
    struct Case {
        V gsizes;
        std::vector<Distribution> dist;
        V dargs, psizes;
    };
    const std::int64_t D = kDistributeDefaultDarg;
    const std::vector<Case> cases = {
        {V{4, 6}, {Distribution::Block, Distribution::Cyclic}, V{D, 2}, V{2, 2}},
        {V{5, 7}, {Distribution::Cyclic, Distribution::Block}, V{2, D}, V{3, 2}},
        {V{3, 4, 5}, {Distribution::Cyclic, Distribution::None, Distribution::Cyclic}, V{2, D, 2}, V{2, 1, 2}},
        {V{6, 5, 4}, {Distribution::Block, Distribution::Cyclic, Distribution::Block}, V{4, 1, D}, V{2, 2, 2}},
        {V{9}, {Distribution::Block}, V{4}, V{3}},  // rank 2 owns only index 8
    };
    for (const Case& c : cases) {
        std::int64_t procs = 1, elems = 1;
        for (auto p : c.psizes) procs *= p;
        for (auto g : c.gsizes) elems *= g;
        for (Order order : {Order::C, Order::Fortran}) {
            std::int64_t total = 0;
            for (int rank = 0; rank < procs; ++rank) {
                const auto t = make_darray(procs, rank, c.gsizes, c.dist, c.dargs, c.psizes, order, INT());
                EXPECT_EQ(t->lb(), 0);
                EXPECT_EQ(t->extent(), elems * 4);
                const auto ref = darray_reference(static_cast<int>(procs), rank, c.gsizes, c.dist, c.dargs,
                                                  c.psizes, order);
                EXPECT_EQ(pack_ints(*t, static_cast<std::size_t>(elems)), ref)
                    << "rank " << rank << " order " << static_cast<int>(order);
                total += t->size() / 4;
            }
            EXPECT_EQ(total, elems) << "every element is owned exactly once";
        }
    }
}

TEST(DatatypeDarray, InvalidArguments) {
    const auto i = INT();
    const std::int64_t D = kDistributeDefaultDarg;
    auto expect = [](ErrorClass cls, auto&& fn) {
        try {
            fn();
            ADD_FAILURE() << "no error";
        } catch (const DatatypeError& e) {
            EXPECT_EQ(e.error_class(), cls) << e.what();
        }
    };
    expect(ErrorClass::Rank, [&] { make_darray(4, 4, V{8}, {Distribution::Block}, V{D}, V{4}, Order::C, i); });
    expect(ErrorClass::Arg, [&] { make_darray(4, 0, V{8}, {Distribution::Block}, V{D}, V{2}, Order::C, i); });
    expect(ErrorClass::Arg, [&] { make_darray(2, 0, V{8}, {Distribution::None}, V{D}, V{2}, Order::C, i); });
    expect(ErrorClass::Arg, [&] { make_darray(2, 0, V{8}, {Distribution::Block}, V{3}, V{2}, Order::C, i); });
    expect(ErrorClass::Arg, [&] { make_darray(2, 0, V{8}, {Distribution::Cyclic}, V{0}, V{2}, Order::C, i); });
    expect(ErrorClass::Arg, [&] { make_darray(2, 0, V{8}, {static_cast<Distribution>(5)}, V{D}, V{2}, Order::C, i); });
    expect(ErrorClass::Arg, [&] { make_darray(1, 0, V{0}, {Distribution::Block}, V{D}, V{1}, Order::C, i); });
    expect(ErrorClass::Type, [&] { make_darray(1, 0, V{4}, {Distribution::Block}, V{D}, V{1}, Order::C, nullptr); });
}

}  // namespace
}  // namespace progsim::dt
