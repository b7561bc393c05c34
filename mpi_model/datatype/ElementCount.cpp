#include "datatype/ElementCount.hpp"

#include <string>

#include "datatype/DatatypeError.hpp"

namespace progsim::dt {
namespace {

struct Prefix {
    std::int64_t elements = 0;
    bool partial = false;  // ends inside an element
};

// Elements in the first `bytes` data bytes of `n` elements of a typed leaf.
Prefix leaf_prefix(PrimitiveId prim, std::int64_t bytes) {
    const PrimitiveInfo& info = primitive_info(prim);
    Prefix p;
    p.elements = bytes / info.size * info.elements;
    const std::int64_t rem = bytes % info.size;
    if (rem == 0) return p;
    if (info.elements == 2 && rem >= info.value_size) {  // the pair's value is complete
        ++p.elements;
        p.partial = rem > info.value_size;
    } else {
        p.partial = true;
    }
    return p;
}

// Elements in the first `bytes` (0 <= bytes < seq.size()) data bytes of an
// item: descend from the node holding the last byte into its partial repetition.
Prefix seq_prefix(const LayoutSeq* seq, std::int64_t bytes) {
    Prefix p;
    while (bytes > 0) {
        const std::size_t i = seq->node_at_byte(bytes);
        const LayoutNode& n = seq->nodes[i];
        std::int64_t rem = bytes - seq->byte_prefix[i];
        const std::int64_t reps = rem / n.size;
        p.elements += seq->elem_prefix[i] + reps * seq->node_elems(n);
        rem -= reps * n.size;
        if (rem == 0) break;
        if (n.is_leaf()) {
            const Prefix q = leaf_prefix(seq->leaf_run(n).prim, rem);
            p.elements += q.elements;
            p.partial = q.partial;
            break;
        }
        seq = n.children.get();
        bytes = rem;
    }
    return p;
}

Prefix message_prefix(const Datatype& type, std::int64_t bytes) {
    if (bytes < 0) throw DatatypeError(ErrorClass::Arg, "negative byte count: " + std::to_string(bytes));
    Prefix p;
    if (type.size() == 0) return p;
    const std::int64_t items = bytes / type.size();
    const Prefix rest = seq_prefix(&type.typed_layout(), bytes - items * type.size());
    p.elements = items * type.num_elements() + rest.elements;
    p.partial = rest.partial;
    return p;
}

}  // namespace

std::optional<std::int64_t> count_items(const Datatype& type, std::int64_t bytes) {
    if (bytes < 0) throw DatatypeError(ErrorClass::Arg, "negative byte count: " + std::to_string(bytes));
    if (type.size() == 0) return 0;  // MPI-4.1 §3.2.5
    if (bytes % type.size() != 0) return std::nullopt;
    return bytes / type.size();
}

std::int64_t count_elements(const Datatype& type, std::int64_t bytes) {
    return message_prefix(type, bytes).elements;
}

bool ends_inside_element(const Datatype& type, std::int64_t bytes) { return message_prefix(type, bytes).partial; }

}  // namespace progsim::dt
