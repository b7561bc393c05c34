#include "datatype/TypeSignature.hpp"

#include <algorithm>
#include <string>

#include "datatype/CheckedMath.hpp"
#include "datatype/DatatypeError.hpp"
#include "datatype/LayoutWalk.hpp"

namespace progsim::dt {
namespace {

// Signature of the first `elements` (< elements of the leaf repetition)
// basic elements of a typed leaf.
SigHash leaf_prefix(PrimitiveId prim, std::int64_t elements) {
    const PrimitiveInfo& info = primitive_info(prim);
    SigHash h = sig_repeat(sig_primitive(prim), elements / info.elements);
    if (elements % info.elements != 0) h = sig_concat(h, sig_element(info.value_id));
    return h;
}

// Signature of the first `elements` (0 <= elements < seq.elems()) basic
// elements of one item.
SigHash seq_prefix(const LayoutSeq* seq, std::int64_t elements) {
    SigHash h;
    while (elements > 0) {
        const std::size_t i = seq->node_at_element(elements);
        const LayoutNode& n = seq->nodes[i];
        std::int64_t rem = elements - seq->elem_prefix[i];
        const std::int64_t elems = seq->node_elems(n);
        const std::int64_t reps = rem / elems;
        h = sig_concat(sig_concat(h, seq->sig_prefix[i]), sig_repeat(seq->node_sig(n), reps));
        rem -= reps * elems;
        if (rem == 0) break;
        if (n.is_leaf()) {
            h = sig_concat(h, leaf_prefix(seq->leaf_run(n).prim, rem));
            break;
        }
        seq = n.children.get();
        elements = rem;
    }
    return h;
}

std::int64_t total_elements(const Datatype& type, std::int64_t count) {
    if (count < 0) throw DatatypeError(ErrorClass::Count, "negative count: " + std::to_string(count));
    return detail::mul(count, type.num_elements(), "element count");
}

struct StopWalk {};

}  // namespace

SigHash message_signature(const Datatype& type, std::int64_t count) {
    total_elements(type, count);
    return sig_repeat(type.signature(), count);
}

SigHash signature_prefix(const Datatype& type, std::int64_t count, std::int64_t elements) {
    const std::int64_t total = total_elements(type, count);
    if (elements < 0 || elements > total)
        throw DatatypeError(ErrorClass::Arg, "signature prefix of " + std::to_string(elements) + " elements out of " +
                                                 std::to_string(total));
    if (elements == 0) return SigHash{};
    const std::int64_t per_item = type.num_elements();
    const std::int64_t items = elements / per_item;
    return sig_concat(sig_repeat(type.signature(), items),
                      seq_prefix(&type.typed_layout(), elements - items * per_item));
}

bool signatures_match(const Datatype& stype, std::int64_t scount, const Datatype& rtype, std::int64_t rcount) {
    const std::int64_t n = std::min(total_elements(stype, scount), total_elements(rtype, rcount));
    if (stype.has_byte_or_packed() || rtype.has_byte_or_packed()) return true;
    return signature_prefix(stype, scount, n) == signature_prefix(rtype, rcount, n);
}

EnvelopeSignature envelope_signature(const Datatype& type, std::int64_t count) {
    if (type.has_byte_or_packed()) return EnvelopeSignature{};
    try {
        const SigHash h = message_signature(type, count);
        return EnvelopeSignature{h.hash, h.length};
    } catch (const DatatypeError&) {  // a count whose elements overflow: nothing to compare
        return EnvelopeSignature{};
    }
}

bool receive_accepts(const EnvelopeSignature& sent, const Datatype& type, std::int64_t count) {
    if (!sent.checked() || type.has_byte_or_packed()) return true;
    try {
        const std::int64_t total = total_elements(type, count);
        if (sent.elements > total) return true;
        // The common case, a message of the receive's length, without the prefix walk.
        const SigHash received = sent.elements == total ? sig_repeat(type.signature(), count)
                                                        : signature_prefix(type, count, sent.elements);
        return received.hash == sent.hash && received.length == sent.elements;
    } catch (const DatatypeError&) {
        return true;
    }
}

std::string items_text(const Datatype& type, std::int64_t count) {
    std::string text = std::to_string(count) + " x ";
    if (type.is_predefined()) return text + type.name();
    constexpr std::size_t kShown = 4;
    text += "a derived datatype (";
    const std::vector<SignatureRun> runs = signature_runs(type, 1, kShown);
    for (std::size_t i = 0; i < runs.size(); ++i)
        text += (i ? ", " : "") + std::string(primitive_info(runs[i].id).name) + " x " + std::to_string(runs[i].count);
    return text + (runs.size() == kShown ? ", ...)" : ")");
}

std::vector<SignatureRun> signature_runs(const Datatype& type, std::int64_t count, std::size_t max_runs) {
    total_elements(type, count);
    std::vector<SignatureRun> runs;
    auto add = [&](PrimitiveId id, std::int64_t n) {
        if (!runs.empty() && runs.back().id == id) {
            runs.back().count += n;
            return;
        }
        if (runs.size() == max_runs) throw StopWalk{};
        runs.push_back(SignatureRun{id, n});
    };
    try {
        detail::walk_message_typed(type, detail::Addr{0}, count,
                                   [&](detail::Addr, PrimitiveId id, std::int64_t n, std::int64_t) {
                                       const PrimitiveInfo& info = primitive_info(id);
                                       if (info.elements == 1) return add(id, n);
                                       for (std::int64_t k = 0; k < n; ++k) {
                                           add(info.value_id, 1);
                                           add(info.index_id, 1);
                                       }
                                   });
    } catch (const StopWalk&) {
    }
    return runs;
}

}  // namespace progsim::dt
