#include "datatype/TypeFactory.hpp"

#include <algorithm>
#include <array>
#include <mutex>
#include <utility>

#include "datatype/CheckedMath.hpp"
#include "datatype/DatatypeError.hpp"

namespace progsim::dt::detail {

void TypeFactory::finalize(Datatype& t) {
    std::int64_t extent;
    if (!sub_ok(t.ub_, t.lb_, extent)) overflow("extent");
    t.contiguous_ = t.bytes_->pieces <= 1;
    t.dense_ = t.contiguous_ && extent == t.size_;
}

DatatypePtr TypeFactory::predefined(PrimitiveId id) {
    static std::array<DatatypePtr, kMaxPrimitiveIndex + 1> cache;
    static std::once_flag once;
    std::call_once(once, [] {
        for (int index = 1; index <= kMaxPrimitiveIndex; ++index) {
            const auto pid = primitive_from_index(index);
            if (!pid) continue;
            const PrimitiveInfo& info = primitive_info(*pid);
            auto t = std::shared_ptr<Datatype>(new Datatype());
            t->size_ = info.size;
            t->lb_ = 0;
            t->ub_ = info.extent;
            t->true_lb_ = 0;
            // Pairs: the index ends the data; padding after it is outside.
            t->true_ub_ = info.elements == 2 ? info.index_offset + (info.size - info.value_size) : info.size;
            t->alignment_ = info.alignment;
            t->elements_ = info.elements;
            t->external32_size_ = info.external32_size;
            t->byte_or_packed_ = *pid == PrimitiveId::kBYTE || *pid == PrimitiveId::kPACKED;
            t->homogeneous_ = true;
            t->single_ = *pid;
            t->predefined_ = *pid;
            if (info.elements == 2) {
                auto bytes = LayoutBuilder::bytes();
                bytes.append_bytes(0, info.value_size);
                bytes.append_bytes(info.index_offset, info.size - info.value_size);
                auto typed = LayoutBuilder::typed();
                typed.append_primitive(0, *pid, 1);
                t->bytes_ = bytes.finish();
                t->typed_ = typed.finish();
            } else {
                auto uniform = LayoutBuilder::uniform(*pid);
                uniform.append_bytes(0, info.size);
                t->bytes_ = t->typed_ = uniform.finish();
            }
            t->combiner_ = Combiner::Named;
            finalize(*t);
            cache[index] = std::move(t);
        }
    });
    const int index = static_cast<int>(id);
    if (index <= 0 || index > kMaxPrimitiveIndex || !cache[index])
        throw DatatypeError(ErrorClass::Type, "not a predefined datatype index: " + std::to_string(index));
    return cache[index];
}

DatatypePtr TypeFactory::compose(const std::vector<Block>& blocks, bool struct_padding, Combiner combiner,
                                 Contents contents) {
    auto t = std::shared_ptr<Datatype>(new Datatype());
    bool have_data = false, have_bounds = false, have_single = false;
    bool homogeneous = true;
    std::int64_t lb = 0, ub = 0;    // of blocks without explicit bounds
    std::int64_t xlb = 0, xub = 0;  // of blocks with explicit bounds

    for (const Block& b : blocks) {
        if (b.count == 0 || b.outer_count == 0) continue;  // no typemap entries (MPICH too)
        const Datatype& old = *b.type;
        const std::int64_t copies = mul(b.count, b.outer_count, "datatype size");
        t->size_ = add(t->size_, mul(copies, old.size_, "datatype size"), "datatype size");
        t->elements_ = add(t->elements_, mul(copies, old.elements_, "element count"), "element count");
        t->external32_size_ =
            add(t->external32_size_, mul(copies, old.external32_size_, "datatype size"), "datatype size");

        // Offsets of the lowest and highest copies relative to disp.
        const std::int64_t inner_span = mul(b.count - 1, b.stride, "displacement");
        const std::int64_t outer_span = mul(b.outer_count - 1, b.outer_stride, "displacement");
        const std::int64_t lo = add(add(b.disp, std::min<std::int64_t>(inner_span, 0), "displacement"),
                                    std::min<std::int64_t>(outer_span, 0), "displacement");
        const std::int64_t hi = add(add(b.disp, std::max<std::int64_t>(inner_span, 0), "displacement"),
                                    std::max<std::int64_t>(outer_span, 0), "displacement");

        if (old.explicit_bounds_) {  // sticky markers (§5.1.7): only they define lb/ub
            const std::int64_t blb = add(lo, old.lb_, "lower bound");
            const std::int64_t bub = add(hi, old.ub_, "upper bound");
            xlb = t->explicit_bounds_ ? std::min(xlb, blb) : blb;
            xub = t->explicit_bounds_ ? std::max(xub, bub) : bub;
            t->explicit_bounds_ = true;
        }
        if (old.size_ == 0) continue;  // an empty typemap adds no entries

        const std::int64_t blb = add(lo, old.lb_, "lower bound");
        const std::int64_t bub = add(hi, old.ub_, "upper bound");
        if (!old.explicit_bounds_) {
            lb = have_bounds ? std::min(lb, blb) : blb;
            ub = have_bounds ? std::max(ub, bub) : bub;
            have_bounds = true;
        }
        const std::int64_t tlb = add(lo, old.true_lb_, "lower bound");
        const std::int64_t tub = add(hi, old.true_ub_, "upper bound");
        t->true_lb_ = have_data ? std::min(t->true_lb_, tlb) : tlb;
        t->true_ub_ = have_data ? std::max(t->true_ub_, tub) : tub;
        t->alignment_ = have_data ? std::max(t->alignment_, old.alignment_) : old.alignment_;
        have_data = true;

        if (!old.homogeneous_ || (have_single && old.single_ != t->single_)) homogeneous = false;
        t->single_ = old.single_;
        have_single = true;
        t->byte_or_packed_ = t->byte_or_packed_ || old.byte_or_packed_;
    }
    t->homogeneous_ = have_data && homogeneous;
    if (!t->homogeneous_) t->single_ = PrimitiveId::kNone;

    // Layouts. A type whose elements all have one non-pair type keeps a
    // single uniform layout for both views.
    const bool uniform = t->homogeneous_ && primitive_info(t->single_).elements == 1;
    auto build = [&blocks](LayoutBuilder builder, LayoutPtr Datatype::*layout, auto make_inner) {
        for (const Block& b : blocks) {
            if (b.count == 0 || b.outer_count == 0 || b.type->size_ == 0) continue;
            const LayoutPtr& item = b.type->*layout;
            if (b.outer_count == 1) {
                builder.append_repeated(item, b.disp, b.count, b.stride);
            } else {
                LayoutBuilder inner = make_inner();
                inner.append_repeated(item, 0, b.count, b.stride);
                builder.append_repeated(inner.finish(), b.disp, b.outer_count, b.outer_stride);
            }
        }
        return builder.finish();
    };
    if (uniform) {
        const PrimitiveId p = t->single_;
        t->bytes_ = t->typed_ = build(LayoutBuilder::uniform(p), &Datatype::bytes_,
                                      [p] { return LayoutBuilder::uniform(p); });
    } else {
        t->bytes_ = build(LayoutBuilder::bytes(), &Datatype::bytes_, [] { return LayoutBuilder::bytes(); });
        t->typed_ = build(LayoutBuilder::typed(), &Datatype::typed_, [] { return LayoutBuilder::typed(); });
    }

    if (t->explicit_bounds_) {
        t->lb_ = xlb;
        t->ub_ = xub;
    } else if (have_bounds) {
        t->lb_ = lb;
        t->ub_ = ub;
        // MPI-4.1 §5.1.6: the extent is rounded up to the alignment of the
        // most-aligned member, as a C compiler pads a struct (MPICH does this
        // for MPI_Type_create_struct only).
        if (struct_padding && t->alignment_ > 1) {
            const std::int64_t rem = (t->ub_ - t->lb_) % t->alignment_;
            if (rem != 0) t->ub_ = add(t->ub_, t->alignment_ - rem, "upper bound");
        }
    }
    if (!have_data) t->alignment_ = 1;
    t->combiner_ = combiner;
    t->contents_ = std::move(contents);
    finalize(*t);
    return t;
}

DatatypePtr TypeFactory::resized(const DatatypePtr& old, std::int64_t lb, std::int64_t extent,
                                 Combiner combiner, Contents contents) {
    auto t = std::shared_ptr<Datatype>(new Datatype(*old));
    t->lb_ = lb;
    t->ub_ = add(lb, extent, "upper bound");
    t->explicit_bounds_ = true;
    t->predefined_ = PrimitiveId::kNone;
    t->combiner_ = combiner;
    t->contents_ = std::move(contents);
    finalize(*t);
    return t;
}

DatatypePtr TypeFactory::retag(const Datatype& base, Combiner combiner, Contents contents) {
    auto t = std::shared_ptr<Datatype>(new Datatype(base));
    t->predefined_ = PrimitiveId::kNone;
    t->combiner_ = combiner;
    t->contents_ = std::move(contents);
    return t;
}

}  // namespace progsim::dt::detail
