// Walks over layouts: the loops behind pack, unpack, copy and the typed
// visitors. Internal to the datatype engine (and header-only so the callbacks
// inline).
//
// Addresses are computed as std::uintptr_t with wrap-around arithmetic:
// MPI_BOTTOM (a null base) with absolute displacements and items whose lb is
// below the buffer start are ordinary cases, and forming such pointers with
// pointer arithmetic would be undefined behaviour. Only addresses of real
// data are turned back into pointers.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

#include "datatype/Datatype.hpp"
#include "datatype/Layout.hpp"

namespace progsim::dt::detail {

using Addr = std::uintptr_t;

inline Addr addr_of(const void* p) noexcept { return reinterpret_cast<Addr>(p); }
inline Addr at(Addr a, std::int64_t offset) noexcept { return a + static_cast<Addr>(offset); }
inline std::byte* ptr(Addr a) noexcept { return reinterpret_cast<std::byte*>(a); }

template <class F>
void walk_bytes(const LayoutSeq& seq, Addr origin, std::int64_t from, std::int64_t to, F&& fn);

// Bytes [lo, hi) of the `count` repetitions of node n (relative to the node's
// own data), n placed relative to `origin`: a partial first repetition, whole
// ones, a partial last one.
template <class F>
void walk_bytes_node(const LayoutNode& n, Addr origin, std::int64_t lo, std::int64_t hi, F& fn) {
    const std::int64_t rep_size = n.size;
    auto visit = [&](Addr rep, std::int64_t off, std::int64_t len) {
        if (n.is_leaf()) fn(at(rep, off), len);
        else walk_bytes(*n.children, rep, off, off + len, fn);
    };
    if (lo == 0 && hi == n.count * rep_size) {  // the whole node: no divisions
        Addr rep = at(origin, n.disp);
        for (std::int64_t j = 0; j < n.count; ++j, rep = at(rep, n.stride)) visit(rep, 0, rep_size);
        return;
    }
    std::int64_t k = 0, off = 0;
    if (lo != 0) {
        k = lo / rep_size;
        off = lo - k * rep_size;
    }
    Addr rep = at(at(origin, n.disp), k * n.stride);
    if (off != 0 || hi - lo < rep_size) {
        const std::int64_t take = std::min(rep_size - off, hi - lo);
        visit(rep, off, take);
        lo += take;
        rep = at(rep, n.stride);
    }
    const std::int64_t full = (hi - lo) / rep_size;
    for (std::int64_t j = 0; j < full; ++j, rep = at(rep, n.stride)) visit(rep, 0, rep_size);
    lo += full * rep_size;
    if (lo < hi) visit(rep, 0, hi - lo);
}

// Visits the contiguous pieces holding the data bytes [from, to) of one item
// (0 <= from <= to <= seq.size()) whose layout origin is `origin`:
// fn(Addr address, int64_t length), in packed-stream order.
template <class F>
void walk_bytes(const LayoutSeq& seq, Addr origin, std::int64_t from, std::int64_t to, F&& fn) {
    if (from >= to) return;
    if (from == 0 && to == seq.size()) {  // the whole item: no searching, no clipping
        for (const LayoutNode& n : seq.nodes) {
            Addr rep = at(origin, n.disp);
            if (n.is_leaf()) {
                for (std::int64_t j = 0; j < n.count; ++j, rep = at(rep, n.stride)) fn(rep, n.size);
            } else {
                for (std::int64_t j = 0; j < n.count; ++j, rep = at(rep, n.stride))
                    walk_bytes(*n.children, rep, 0, n.size, fn);
            }
        }
        return;
    }
    const auto& pre = seq.byte_prefix;
    for (std::size_t i = from == 0 ? 0 : seq.node_at_byte(from); i < seq.nodes.size() && pre[i] < to; ++i) {
        const std::int64_t lo = std::max<std::int64_t>(from - pre[i], 0);
        const std::int64_t hi = std::min(to, pre[i + 1]) - pre[i];
        walk_bytes_node(seq.nodes[i], origin, lo, hi, fn);
    }
}

// Visits every typed run of one item: fn(Addr address, PrimitiveId id,
// int64_t n, int64_t packed_offset), n elements of id at
// primitive_info(id).extent apart, whose data starts at packed_offset in the
// packed stream.
template <class F>
void walk_typed(const LayoutSeq& seq, Addr origin, std::int64_t packed, F& fn) {
    for (std::size_t i = 0; i < seq.nodes.size(); ++i) {
        const LayoutNode& n = seq.nodes[i];
        Addr rep = at(origin, n.disp);
        std::int64_t p = packed + seq.byte_prefix[i];
        if (n.is_leaf()) {
            const PrimitiveRun run = seq.leaf_run(n);
            for (std::int64_t k = 0; k < n.count; ++k, rep = at(rep, n.stride), p += n.size)
                fn(rep, run.prim, run.n, p);
        } else {
            for (std::int64_t k = 0; k < n.count; ++k, rep = at(rep, n.stride), p += n.size)
                walk_typed(*n.children, rep, p, fn);
        }
    }
}

// Data bytes [from, to) of the packed stream of items at base, base + extent, ...
template <class F>
void walk_message_bytes(const Datatype& t, Addr base, std::int64_t from, std::int64_t to, F&& fn) {
    if (from >= to) return;
    if (t.is_dense()) {
        fn(at(base, t.true_lb() + from), to - from);
        return;
    }
    const std::int64_t size = t.size();
    const std::int64_t extent = t.extent();
    std::int64_t item = from / size;
    std::int64_t off = from - item * size;
    Addr origin = at(base, item * extent);
    if (t.is_contiguous()) {  // one piece per item, at origin + true_lb
        origin = at(origin, t.true_lb());
        while (from < to) {
            const std::int64_t take = std::min(size - off, to - from);
            fn(at(origin, off), take);
            from += take;
            off = 0;
            origin = at(origin, extent);
        }
        return;
    }
    while (from < to) {
        const std::int64_t take = std::min(size - off, to - from);
        walk_bytes(t.byte_layout(), origin, off, off + take, fn);
        from += take;
        off = 0;
        origin = at(origin, extent);
    }
}

// Every typed run of `count` items; runs of consecutive items are merged
// when the items are back to back.
template <class F>
void walk_message_typed(const Datatype& t, Addr base, std::int64_t count, F&& fn) {
    if (count <= 0 || t.size() == 0) return;
    const LayoutSeq& seq = t.typed_layout();
    if (seq.nodes.size() == 1) {
        const LayoutNode& n = seq.nodes.front();
        if (n.is_leaf() && n.count == 1 && leaf_span(n) == t.extent()) {
            const PrimitiveRun run = seq.leaf_run(n);
            fn(at(base, n.disp), run.prim, run.n * count, std::int64_t{0});
            return;
        }
    }
    Addr origin = base;
    std::int64_t packed = 0;
    for (std::int64_t i = 0; i < count; ++i, origin = at(origin, t.extent()), packed += t.size())
        walk_typed(seq, origin, packed, fn);
}

}  // namespace progsim::dt::detail
