// The memory layout of ONE item of a datatype, as a small tree (a "dataloop").
//
// A LayoutSeq is the ordered sequence of nodes of one item, in typemap order
// (which is the order of the packed stream, MPI-4.1 §4.2: not memory order).
// A node is `count` repetitions, the k-th at disp + k*stride from the origin
// of the enclosing sequence, of either
//   * a leaf: one contiguous run of bytes, or of `nprim` consecutive elements
//     of one predefined type, or
//   * an inner node: a shared child sequence.
// Builders merge adjacent runs and fold regular repetitions into one node,
// so contiguous(1e8, MPI_INT) is one leaf and vector(1e8, 1, 2, MPI_INT) is
// one strided leaf. The tree size is bounded by the constructor arguments;
// it never grows with counts.
//
// A Datatype has a byte layout (leaves are maximal contiguous byte runs: for
// pack, unpack, copy) and a typed layout (leaves are runs of one predefined
// type: for reductions, element counts and signatures; a pair type is one
// element of its own id there). When every element has the same non-pair
// type P, one "uniform" sequence serves as both: its leaves are byte runs
// holding size / sizeof(P) elements of P.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "datatype/PrimitiveType.hpp"
#include "datatype/SignatureHash.hpp"

namespace progsim::dt {

struct LayoutSeq;

struct LayoutNode {
    std::int64_t disp = 0;    // bytes from the enclosing origin to the first repetition
    std::int64_t count = 1;   // repetitions, >= 1
    std::int64_t stride = 0;  // bytes between repetitions
    std::int64_t size = 0;    // data bytes of one repetition, > 0
    // Leaves of typed sequences: `nprim` elements of `prim`,
    // primitive_info(prim).extent bytes apart. kNone in byte and uniform
    // sequences.
    std::int64_t nprim = 0;
    PrimitiveId prim = PrimitiveId::kNone;
    // Inner nodes: the repeated sequence, whose origin is the repetition's start.
    std::shared_ptr<const LayoutSeq> children;

    bool is_leaf() const noexcept { return children == nullptr; }
};

// A typed leaf, whatever the kind of sequence holding it.
struct PrimitiveRun {
    PrimitiveId prim;
    std::int64_t n;
};

struct LayoutSeq {
    enum class Kind : std::uint8_t { Bytes, Typed, Uniform };

    Kind kind = Kind::Bytes;
    PrimitiveId uniform = PrimitiveId::kNone;  // Uniform: the element type
    std::int64_t uniform_size = 0;             // Uniform: its size
    std::vector<LayoutNode> nodes;
    // Prefix sums over nodes (size nodes.size() + 1): data bytes, and unless
    // kind == Bytes, basic elements and signatures, of nodes[0, i).
    std::vector<std::int64_t> byte_prefix{0};
    std::vector<std::int64_t> elem_prefix{0};
    std::vector<SigHash> sig_prefix{SigHash{}};
    // Contiguous pieces the byte walkers visit for one item (saturates at INT64_MAX).
    std::int64_t pieces = 0;

    bool typed() const noexcept { return kind != Kind::Bytes; }
    std::int64_t size() const noexcept { return byte_prefix.back(); }
    std::int64_t elems() const noexcept { return elem_prefix.back(); }
    const SigHash& sig() const noexcept { return sig_prefix.back(); }
    // Index of the node holding data byte `offset` (0 <= offset < size()).
    std::size_t node_at_byte(std::int64_t offset) const noexcept;
    // Index of the node holding basic element `element` (0 <= element < elems()).
    std::size_t node_at_element(std::int64_t element) const noexcept;

    // For typed() sequences: the run of a leaf, its basic elements and
    // signature per repetition (inner nodes: of the child sequence).
    PrimitiveRun leaf_run(const LayoutNode& leaf) const noexcept {
        if (kind == Kind::Uniform) return PrimitiveRun{uniform, leaf.size / uniform_size};
        return PrimitiveRun{leaf.prim, leaf.nprim};
    }
    std::int64_t node_elems(const LayoutNode& n) const;
    SigHash node_sig(const LayoutNode& n) const;
};

using LayoutPtr = std::shared_ptr<const LayoutSeq>;

// Bytes from the first to one past the last byte of one repetition of a leaf
// (byte and uniform leaves: size; typed leaves: nprim * extent, pair padding
// included).
std::int64_t leaf_span(const LayoutNode& n);

// Builds a LayoutSeq by appending repetitions of existing item layouts.
class LayoutBuilder {
public:
    // Typed builders accept typed and uniform items; Uniform(P) builders
    // only uniform items of P; Bytes builders byte and uniform items.
    static LayoutBuilder bytes() { return LayoutBuilder(LayoutSeq::Kind::Bytes, PrimitiveId::kNone); }
    static LayoutBuilder typed() { return LayoutBuilder(LayoutSeq::Kind::Typed, PrimitiveId::kNone); }
    static LayoutBuilder uniform(PrimitiveId p) { return LayoutBuilder(LayoutSeq::Kind::Uniform, p); }

    // Appends one leaf of `bytes` bytes (Bytes and Uniform builders) or of
    // `n` elements of `prim` (Typed builders) at `disp`.
    void append_bytes(std::int64_t disp, std::int64_t bytes);
    void append_primitive(std::int64_t disp, PrimitiveId prim, std::int64_t n);
    // Appends `count` copies of the item layout `item`, the k-th placed at
    // disp + k*stride. Empty layouts and count == 0 append nothing.
    void append_repeated(const LayoutPtr& item, std::int64_t disp, std::int64_t count,
                         std::int64_t stride);

    LayoutPtr finish();

private:
    LayoutBuilder(LayoutSeq::Kind kind, PrimitiveId uniform);
    void append_node(LayoutNode node);
    LayoutSeq::Kind kind_;
    PrimitiveId uniform_;
    std::int64_t uniform_size_ = 0;
    std::vector<LayoutNode> nodes_;
};

}  // namespace progsim::dt
