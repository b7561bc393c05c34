// Datatype engine against a brute-force reference: random nested types
// (fixed seeds, so deterministic) are expanded into their typemaps straight
// from MPI_Type_get_contents (MPI-4.1 §5.1), and every operation of the
// engine is compared with the same operation done entry by entry.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <random>
#include <tuple>
#include <vector>

#include "datatype/ElementCount.hpp"
#include "datatype/Pack.hpp"
#include "datatype/PrimitiveVisitor.hpp"
#include "datatype/TypeConstructors.hpp"
#include "datatype/TypeSignature.hpp"

namespace progsim::dt {
namespace {

using V = std::vector<std::int64_t>;

struct Entry {
    std::int64_t offset;
    PrimitiveId basic;  // never a pair type
    std::int64_t size;
};

// The typemap of one item, in order, pair types split into their components.
void expand(const Datatype& t, std::int64_t base, std::vector<Entry>& out) {
    const Contents& c = t.contents();
    const auto& i = c.integers;
    const auto& a = c.addresses;
    switch (t.combiner()) {
        case Combiner::Named: {
            const PrimitiveInfo& info = primitive_info(t.predefined_id());
            if (info.elements == 1) {
                out.push_back({base, info.id, info.size});
            } else {
                out.push_back({base, info.value_id, info.value_size});
                out.push_back({base + info.index_offset, info.index_id, info.size - info.value_size});
            }
            return;
        }
        case Combiner::Dup:
        case Combiner::Resized: return expand(*c.datatypes[0], base, out);
        case Combiner::Contiguous: {
            const Datatype& o = *c.datatypes[0];
            for (std::int64_t k = 0; k < i[0]; ++k) expand(o, base + k * o.extent(), out);
            return;
        }
        case Combiner::Vector:
        case Combiner::Hvector: {
            const Datatype& o = *c.datatypes[0];
            const std::int64_t stride = t.combiner() == Combiner::Vector ? i[2] * o.extent() : a[0];
            for (std::int64_t k = 0; k < i[0]; ++k)
                for (std::int64_t j = 0; j < i[1]; ++j) expand(o, base + k * stride + j * o.extent(), out);
            return;
        }
        case Combiner::Indexed:
        case Combiner::Hindexed: {
            const Datatype& o = *c.datatypes[0];
            const std::int64_t n = i[0];
            for (std::int64_t b = 0; b < n; ++b) {
                const std::int64_t disp =
                    t.combiner() == Combiner::Indexed ? i[static_cast<std::size_t>(1 + n + b)] * o.extent()
                                                      : a[static_cast<std::size_t>(b)];
                for (std::int64_t j = 0; j < i[static_cast<std::size_t>(1 + b)]; ++j)
                    expand(o, base + disp + j * o.extent(), out);
            }
            return;
        }
        case Combiner::IndexedBlock:
        case Combiner::HindexedBlock: {
            const Datatype& o = *c.datatypes[0];
            for (std::int64_t b = 0; b < i[0]; ++b) {
                const std::int64_t disp = t.combiner() == Combiner::IndexedBlock
                                              ? i[static_cast<std::size_t>(2 + b)] * o.extent()
                                              : a[static_cast<std::size_t>(b)];
                for (std::int64_t j = 0; j < i[1]; ++j) expand(o, base + disp + j * o.extent(), out);
            }
            return;
        }
        case Combiner::Struct: {
            for (std::int64_t b = 0; b < i[0]; ++b) {
                const Datatype& o = *c.datatypes[static_cast<std::size_t>(b)];
                for (std::int64_t j = 0; j < i[static_cast<std::size_t>(1 + b)]; ++j)
                    expand(o, base + a[static_cast<std::size_t>(b)] + j * o.extent(), out);
            }
            return;
        }
        default: FAIL() << "combiner not generated";
    }
}

class Generator {
public:
    explicit Generator(std::uint32_t seed) : rng_(seed) {}

    DatatypePtr type(int depth) {
        if (depth == 0 || pick(0, 3) == 0) return base();
        switch (pick(0, 9)) {
            case 0: return make_contiguous(pick(0, 4), type(depth - 1));
            case 1: return make_vector(pick(0, 4), pick(0, 3), pick(-4, 5), type(depth - 1));
            case 2: return make_hvector(pick(0, 4), pick(0, 3), pick(-40, 40), type(depth - 1));
            case 3: {
                const auto n = pick(0, 4);
                V bl, d;
                for (std::int64_t k = 0; k < n; ++k) {
                    bl.push_back(pick(0, 3));
                    d.push_back(pick(-6, 6));
                }
                return make_indexed(bl, d, type(depth - 1));
            }
            case 4: {
                const auto n = pick(0, 4);
                V bl, d;
                for (std::int64_t k = 0; k < n; ++k) {
                    bl.push_back(pick(0, 3));
                    d.push_back(pick(-50, 50));
                }
                return make_hindexed(bl, d, type(depth - 1));
            }
            case 5: {
                V d;
                for (std::int64_t k = pick(0, 4); k > 0; --k) d.push_back(pick(-5, 5));
                return make_indexed_block(pick(0, 3), d, type(depth - 1));
            }
            case 6: {
                V d;
                for (std::int64_t k = pick(0, 20); k > 0; --k) d.push_back(pick(-60, 60));
                return make_hindexed_block(pick(0, 2), d, type(depth - 1));
            }
            case 7: {
                const auto n = pick(1, 4);
                V bl, d;
                std::vector<DatatypePtr> ts;
                for (std::int64_t k = 0; k < n; ++k) {
                    bl.push_back(pick(0, 3));
                    d.push_back(pick(-40, 40));
                    ts.push_back(type(depth - 1));
                }
                return make_struct(bl, d, ts);
            }
            case 8: return make_resized(type(depth - 1), pick(-16, 16), pick(0, 48));
            default: return make_dup(type(depth - 1));
        }
    }

    std::int64_t pick(std::int64_t lo, std::int64_t hi) {
        return std::uniform_int_distribution<std::int64_t>(lo, hi)(rng_);
    }

private:
    DatatypePtr base() {
        static const PrimitiveId ids[] = {PrimitiveId::kCHAR,       PrimitiveId::kSHORT,     PrimitiveId::kINT,
                                          PrimitiveId::kDOUBLE,     PrimitiveId::kFLOAT,     PrimitiveId::kDOUBLE_INT,
                                          PrimitiveId::kSHORT_INT,  PrimitiveId::kLONG_DOUBLE, PrimitiveId::kINT};
        return predefined(ids[pick(0, 8)]);
    }
    std::mt19937 rng_;
};

// A buffer wide enough for `count` items, with the item base in the middle.
struct Arena {
    std::vector<unsigned char> bytes;
    std::int64_t base_offset = 0;
    unsigned char* base() { return bytes.data() + base_offset; }
};

Arena arena_for(const std::vector<Entry>& map, const Datatype& t, std::int64_t count) {
    std::int64_t lo = 0, hi = 0;
    for (std::int64_t k = 0; k < count; ++k)
        for (const Entry& e : map) {
            lo = std::min(lo, k * t.extent() + e.offset);
            hi = std::max(hi, k * t.extent() + e.offset + e.size);
        }
    Arena a;
    a.bytes.resize(static_cast<std::size_t>(hi - lo + 16));
    a.base_offset = -lo + 8;
    return a;
}

void check_type(const DatatypePtr& t, std::mt19937& rng, int which) {
    SCOPED_TRACE("random type " + std::to_string(which));
    std::vector<Entry> map;
    expand(*t, 0, map);

    // Sizes, bounds, elements.
    std::int64_t size = 0;
    for (const Entry& e : map) size += e.size;
    ASSERT_EQ(t->size(), size);
    ASSERT_EQ(t->num_elements(), static_cast<std::int64_t>(map.size()));
    if (!map.empty()) {
        std::int64_t lo = map[0].offset, hi = map[0].offset + map[0].size;
        for (const Entry& e : map) {
            lo = std::min(lo, e.offset);
            hi = std::max(hi, e.offset + e.size);
        }
        EXPECT_EQ(t->true_lb(), lo);
        EXPECT_EQ(t->true_ub(), hi);
    }

    const std::int64_t count = std::uniform_int_distribution<std::int64_t>(1, 3)(rng);
    std::vector<Entry> msg;  // the typemap of the whole message
    for (std::int64_t k = 0; k < count; ++k)
        for (const Entry& e : map) msg.push_back({k * t->extent() + e.offset, e.basic, e.size});

    // Pack against the reference.
    Arena src = arena_for(map, *t, count);
    for (auto& b : src.bytes) b = static_cast<unsigned char>(rng());
    std::vector<std::byte> expected;
    for (const Entry& e : msg)
        for (std::int64_t j = 0; j < e.size; ++j) expected.push_back(std::byte{src.base()[e.offset + j]});
    std::vector<std::byte> packed(expected.size());
    std::size_t pos = 0;
    pack(src.base(), count, *t, packed.data(), packed.size(), pos);
    ASSERT_EQ(pos, packed.size());
    ASSERT_EQ(packed, expected);

    // Unpack against the reference (overlapping entries: last write wins in both).
    Arena dst = arena_for(map, *t, count), ref = dst;
    pos = 0;
    unpack(packed.data(), packed.size(), pos, dst.base(), count, *t);
    std::size_t p = 0;
    for (const Entry& e : msg)
        for (std::int64_t j = 0; j < e.size; ++j) ref.base()[e.offset + j] = static_cast<unsigned char>(packed[p++]);
    EXPECT_EQ(dst.bytes, ref.bytes);

    // Ranges in random chunks, and delivery into a contiguous byte buffer.
    const auto total = static_cast<std::int64_t>(packed.size());
    std::vector<std::byte> pieces(packed.size());
    for (std::int64_t off = 0; off < total;) {
        const std::int64_t len = std::min<std::int64_t>(total - off, std::uniform_int_distribution<std::int64_t>(1, 13)(rng));
        pack_range(src.base(), count, *t, off, len, pieces.data() + off);
        off += len;
    }
    EXPECT_EQ(pieces, expected);
    std::vector<std::byte> delivered(packed.size());
    EXPECT_EQ(copy_typed(src.base(), count, *t, delivered.data(), total, *predefined(PrimitiveId::kBYTE)), total);
    EXPECT_EQ(delivered, expected);
    // Typed copy into a second layout with the same data, then back.
    if (total > 0) {
        const auto other = make_resized(make_contiguous(total, predefined(PrimitiveId::kBYTE)), 0, total + 3);
        std::vector<std::byte> mid(static_cast<std::size_t>(total + 3));
        copy_typed(src.base(), count, *t, mid.data(), 1, *other);
        Arena back = arena_for(map, *t, count);
        copy_typed(mid.data(), 1, *other, back.base(), count, *t);
        EXPECT_EQ(back.bytes, ref.bytes);
    }

    // Element counts at every byte boundary.
    std::int64_t elems = 0, end = 0;
    for (std::int64_t b = 0; b <= total; ++b) {
        while (elems < static_cast<std::int64_t>(msg.size()) && end + msg[static_cast<std::size_t>(elems)].size <= b)
            end += msg[static_cast<std::size_t>(elems++)].size;
        ASSERT_EQ(count_elements(*t, b), elems) << "bytes " << b;
        ASSERT_EQ(ends_inside_element(*t, b), end != b) << "bytes " << b;
    }

    // Signature: run-length list and hash.
    std::vector<SignatureRun> runs;
    SigHash h;
    for (const Entry& e : msg) {
        if (!runs.empty() && runs.back().id == e.basic) ++runs.back().count;
        else runs.push_back({e.basic, 1});
        h = sig_concat(h, sig_element(e.basic));
    }
    EXPECT_EQ(signature_runs(*t, count), runs);
    EXPECT_EQ(message_signature(*t, count), h);
    for (std::int64_t k = 0; k <= static_cast<std::int64_t>(msg.size()); k += 3) {
        SigHash pre;
        for (std::int64_t j = 0; j < k; ++j) pre = sig_concat(pre, sig_element(msg[static_cast<std::size_t>(j)].basic));
        EXPECT_EQ(signature_prefix(*t, count, k), pre) << k;
    }

    // Typed runs, split into basic elements, are the typemap.
    std::vector<std::pair<std::int64_t, PrimitiveId>> seen;
    for_each_primitive_run_offset(count, *t, [&](std::int64_t off, std::int64_t, PrimitiveId id, std::int64_t n) {
        const PrimitiveInfo& info = primitive_info(id);
        for (std::int64_t k = 0; k < n; ++k) {
            seen.emplace_back(off + k * info.extent, info.value_id);
            if (info.elements == 2) seen.emplace_back(off + k * info.extent + info.index_offset, info.index_id);
        }
    });
    ASSERT_EQ(seen.size(), msg.size());
    for (std::size_t k = 0; k < msg.size(); ++k) {
        EXPECT_EQ(seen[k].first, msg[k].offset) << k;
        EXPECT_EQ(seen[k].second, msg[k].basic) << k;
    }
    // single_primitive agrees with the typemap.
    bool same = !map.empty();
    std::vector<PrimitiveId> units;
    for_each_primitive_run_offset(1, *t, [&](std::int64_t, std::int64_t, PrimitiveId id, std::int64_t) {
        units.push_back(id);
    });
    for (PrimitiveId u : units) same = same && u == units.front();
    EXPECT_EQ(t->single_primitive().has_value(), same);
    if (same) {
        EXPECT_EQ(*t->single_primitive(), units.front());
    }
}

TEST(DatatypeRandom, EngineMatchesTypemapReference) {
    std::mt19937 rng(20240521);
    for (int seed = 0; seed < 400; ++seed) {
        Generator gen(static_cast<std::uint32_t>(seed));
        const DatatypePtr t = gen.type(4);
        check_type(t, rng, seed);
        if (HasFatalFailure()) return;
    }
}

}  // namespace
}  // namespace progsim::dt
