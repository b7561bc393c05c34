#include "datatype/Layout.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

#include "datatype/CheckedMath.hpp"

namespace progsim::dt {

using detail::add_ok;
using detail::mul_ok;
using detail::sub_ok;

std::size_t LayoutSeq::node_at_byte(std::int64_t offset) const noexcept {
    return static_cast<std::size_t>(std::upper_bound(byte_prefix.begin(), byte_prefix.end(), offset) -
                                    byte_prefix.begin() - 1);
}

std::size_t LayoutSeq::node_at_element(std::int64_t element) const noexcept {
    return static_cast<std::size_t>(std::upper_bound(elem_prefix.begin(), elem_prefix.end(), element) -
                                    elem_prefix.begin() - 1);
}

std::int64_t LayoutSeq::node_elems(const LayoutNode& n) const {
    if (!n.is_leaf()) return n.children->elems();
    const PrimitiveRun run = leaf_run(n);
    return run.n * primitive_info(run.prim).elements;
}

SigHash LayoutSeq::node_sig(const LayoutNode& n) const {
    if (!n.is_leaf()) return n.children->sig();
    const PrimitiveRun run = leaf_run(n);
    return sig_repeat(sig_primitive(run.prim), run.n);
}

std::int64_t leaf_span(const LayoutNode& n) {
    return n.prim == PrimitiveId::kNone ? n.size : n.nprim * primitive_info(n.prim).extent;
}

namespace {

constexpr std::size_t kMaxSplice = 16;

// Same repeated content: identical leaves, or the same shared child sequence.
bool same_shape(const LayoutNode& a, const LayoutNode& b) noexcept {
    if (a.is_leaf() != b.is_leaf()) return false;
    if (!a.is_leaf()) return a.children == b.children;
    return a.prim == b.prim && a.size == b.size && a.nprim == b.nprim;
}

// Displacement the repetition after the last one of `p` would have.
bool next_disp(const LayoutNode& p, std::int64_t stride, std::int64_t& out) noexcept {
    std::int64_t step;
    return mul_ok(p.count, stride, step) && add_ok(p.disp, step, out);
}

}  // namespace

LayoutBuilder::LayoutBuilder(LayoutSeq::Kind kind, PrimitiveId uniform) : kind_(kind), uniform_(uniform) {
    if (kind_ == LayoutSeq::Kind::Uniform) {
        const PrimitiveInfo& info = primitive_info(uniform);
        if (info.elements != 1 || info.size != info.extent)
            throw std::logic_error("uniform layouts need a non-pair primitive");
        uniform_size_ = info.size;
    }
}

void LayoutBuilder::append_node(LayoutNode n) {
    if (!nodes_.empty()) {
        LayoutNode& p = nodes_.back();
        std::int64_t end;
        // 1. Adjacent single runs of the same kind: one longer run.
        if (p.is_leaf() && n.is_leaf() && p.prim == n.prim && p.count == 1 && n.count == 1 &&
            add_ok(p.disp, leaf_span(p), end) && end == n.disp) {
            p.size += n.size;
            p.nprim += n.nprim;
            return;
        }
        // 2. The same content again: extend (or start) a strided repetition.
        if (same_shape(p, n)) {
            std::int64_t next;
            if (n.count == 1) {
                std::int64_t stride;
                if (p.count == 1 && sub_ok(n.disp, p.disp, stride)) {
                    p.count = 2;
                    p.stride = stride;
                    return;
                }
                if (next_disp(p, p.stride, next) && next == n.disp) {
                    ++p.count;
                    return;
                }
            } else if ((p.count == 1 || p.stride == n.stride) && next_disp(p, n.stride, next) &&
                       next == n.disp) {
                p.count += n.count;
                p.stride = n.stride;
                return;
            }
        }
    }
    nodes_.push_back(std::move(n));
}

void LayoutBuilder::append_bytes(std::int64_t disp, std::int64_t bytes) {
    if (kind_ == LayoutSeq::Kind::Typed) throw std::logic_error("byte run in a typed layout");
    if (bytes <= 0) return;
    LayoutNode n;
    n.disp = disp;
    n.size = bytes;
    append_node(std::move(n));
}

void LayoutBuilder::append_primitive(std::int64_t disp, PrimitiveId prim, std::int64_t count) {
    if (kind_ != LayoutSeq::Kind::Typed) throw std::logic_error("typed run in a byte layout");
    if (count <= 0) return;
    const PrimitiveInfo& info = primitive_info(prim);
    LayoutNode n;
    n.disp = disp;
    n.prim = prim;
    n.nprim = count;
    n.size = detail::mul(info.size, count, "datatype size");
    detail::mul(info.extent, count, "datatype extent");
    append_node(std::move(n));
}

void LayoutBuilder::append_repeated(const LayoutPtr& item, std::int64_t disp, std::int64_t count,
                                    std::int64_t stride) {
    if (count <= 0 || !item || item->size() == 0) return;
    if (kind_ == LayoutSeq::Kind::Uniform &&
        (item->kind != LayoutSeq::Kind::Uniform || item->uniform != uniform_))
        throw std::logic_error("uniform layout built from another element type");
    if (kind_ == LayoutSeq::Kind::Typed && item->kind == LayoutSeq::Kind::Bytes)
        throw std::logic_error("typed layout built from a byte layout");
    if (kind_ == LayoutSeq::Kind::Bytes && item->kind == LayoutSeq::Kind::Typed)
        throw std::logic_error("byte layout built from a typed layout");
    // Leaves copied out of a uniform item into a typed layout become typed.
    const bool retype = kind_ == LayoutSeq::Kind::Typed && item->kind == LayoutSeq::Kind::Uniform;
    auto copy = [&](const LayoutNode& src) {
        LayoutNode n = src;
        if (retype && n.is_leaf()) {
            const PrimitiveRun run = item->leaf_run(n);
            n.prim = run.prim;
            n.nprim = run.n;
        }
        if (!add_ok(n.disp, disp, n.disp)) detail::overflow("displacement");
        return n;
    };

    const auto& nodes = item->nodes;
    if (nodes.size() == 1) {
        LayoutNode n = copy(nodes.front());
        if (count == 1) return append_node(std::move(n));
        if (n.count == 1) {
            std::int64_t span, size, nprim;
            if (n.is_leaf() && stride == leaf_span(n) && mul_ok(stride, count, span) &&
                mul_ok(n.size, count, size) && mul_ok(n.nprim, count, nprim)) {
                // Back-to-back copies of one run: a single longer run.
                n.size = size;
                n.nprim = nprim;
                return append_node(std::move(n));
            }
            n.count = count;
            n.stride = stride;
            return append_node(std::move(n));
        }
        std::int64_t period, reps;
        if (mul_ok(n.count, n.stride, period) && period == stride && mul_ok(n.count, count, reps)) {
            // The copies continue the node's own stride pattern.
            n.count = reps;
            return append_node(std::move(n));
        }
    } else if (count == 1 && nodes.size() <= kMaxSplice) {
        // A short item is inlined so its runs can merge with their neighbours;
        // a long one is referenced (below), so indexed types of big structs
        // do not copy the struct once per block.
        for (const LayoutNode& src : nodes) append_node(copy(src));
        return;
    }
    LayoutNode n;
    n.disp = disp;
    n.count = count;
    n.stride = stride;
    n.size = item->size();
    n.children = item;
    append_node(std::move(n));
}

LayoutPtr LayoutBuilder::finish() {
    auto seq = std::make_shared<LayoutSeq>();
    seq->kind = kind_;
    seq->uniform = uniform_;
    seq->uniform_size = uniform_size_;
    seq->byte_prefix.reserve(nodes_.size() + 1);
    if (seq->typed()) {
        seq->elem_prefix.reserve(nodes_.size() + 1);
        seq->sig_prefix.reserve(nodes_.size() + 1);
    }
    constexpr std::int64_t kMax = std::numeric_limits<std::int64_t>::max();
    for (const LayoutNode& n : nodes_) {
        seq->byte_prefix.push_back(
            detail::add(seq->byte_prefix.back(), detail::mul(n.size, n.count, "datatype size"),
                        "datatype size"));
        const std::int64_t per = n.is_leaf() ? 1 : n.children->pieces;
        std::int64_t pieces;
        if (!mul_ok(per, n.count, pieces) || !add_ok(seq->pieces, pieces, seq->pieces)) seq->pieces = kMax;
        if (!seq->typed()) continue;
        seq->elem_prefix.push_back(detail::add(
            seq->elem_prefix.back(), detail::mul(seq->node_elems(n), n.count, "element count"), "element count"));
        seq->sig_prefix.push_back(sig_concat(seq->sig_prefix.back(), sig_repeat(seq->node_sig(n), n.count)));
    }
    seq->nodes = std::move(nodes_);
    nodes_.clear();
    if (seq->nodes.capacity() > seq->nodes.size() + seq->nodes.size() / 4) seq->nodes.shrink_to_fit();
    return seq;
}

}  // namespace progsim::dt
