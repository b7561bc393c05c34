// An MPI datatype (MPI-4.1 chapter 5): an immutable value shared by
// std::shared_ptr<const Datatype>. Create them with the functions of
// TypeConstructors.hpp; move data with Pack.hpp; reduce with
// PrimitiveVisitor.hpp.
//
// Terms used throughout:
//   item           one copy of the type; `count` items of a message are laid
//                  out at base + i * extent() (§5.1.6).
//   packed stream  the size() data bytes of each item in typemap order, items
//                  one after the other: the MPI_Pack format and the bytes a
//                  message carries.
//   basic element  a predefined type's value; pair types (MPI_DOUBLE_INT...)
//                  count as their two components, as in MPICH (§5.1.11).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "datatype/Layout.hpp"
#include "datatype/PrimitiveType.hpp"
#include "datatype/SignatureHash.hpp"

namespace progsim::dt {

class Datatype;
using DatatypePtr = std::shared_ptr<const Datatype>;

// MPI_COMBINER_* (MPI-4.1 §5.1.13), numbered as in MPICH's mpi.h.
enum class Combiner : int {
    Named = 1,
    Dup = 2,
    Contiguous = 3,
    Vector = 4,
    Hvector = 6,
    Indexed = 7,
    Hindexed = 9,
    IndexedBlock = 10,
    Struct = 12,
    Subarray = 13,
    Darray = 14,
    Resized = 18,
    HindexedBlock = 19,
};

// MPI_ORDER_C / MPI_ORDER_FORTRAN and MPI_DISTRIBUTE_*, numbered as in
// MPICH's mpi.h. Contents store these numbers.
enum class Order : int { C = 56, Fortran = 57 };
enum class Distribution : int { Block = 121, Cyclic = 122, None = 123 };
inline constexpr std::int64_t kDistributeDefaultDarg = -49767;  // MPI_DISTRIBUTE_DFLT_DARG

// MPI_Type_get_envelope.
struct Envelope {
    Combiner combiner;
    std::int64_t num_integers;
    std::int64_t num_addresses;
    std::int64_t num_datatypes;
};

// MPI_Type_get_contents: the constructor arguments, laid out as in the table
// of MPI-4.1 §5.1.13 for the non-large-count constructors (integers i[],
// addresses a[], datatypes d[]). Empty for predefined types. Integers are
// stored as int64_t; a binding for the int versions narrows them (and for
// the _c functions moves the count arguments to the large-count array).
// large_counts: the type was built by a large-count ("_c") constructor, so
// its count arguments decode as large counts (with_large_counts()).
struct Contents {
    std::vector<std::int64_t> integers;
    std::vector<std::int64_t> addresses;
    std::vector<DatatypePtr> datatypes;
    bool large_counts = false;
};

namespace detail {
struct TypeFactory;
}

class Datatype {
public:
    // --- Sizes and bounds (MPI-4.1 §5.1.6-§5.1.8) -------------------------
    std::int64_t size() const noexcept { return size_; }  // MPI_Type_size
    std::int64_t lb() const noexcept { return lb_; }
    std::int64_t ub() const noexcept { return ub_; }
    std::int64_t extent() const noexcept { return ub_ - lb_; }
    // True bounds: of the data only, ignoring resizing and struct padding.
    // A type without data has true_lb() == true_ub() == 0.
    std::int64_t true_lb() const noexcept { return true_lb_; }
    std::int64_t true_ub() const noexcept { return true_ub_; }
    std::int64_t true_extent() const noexcept { return true_ub_ - true_lb_; }
    // Whether lb/ub come from MPI_Type_create_resized somewhere in the
    // construction ("sticky" markers, §5.1.7); if so no struct padding applies.
    bool has_explicit_bounds() const noexcept { return explicit_bounds_; }
    // Alignment used for the struct epsilon: the largest alignof() of the
    // predefined types in the typemap (1 for types without data).
    std::int64_t alignment() const noexcept { return alignment_; }

    // --- Content ----------------------------------------------------------
    std::int64_t num_elements() const noexcept { return elements_; }  // basic elements per item
    // The predefined type every element has (pair types: the pair's id), or
    // nullopt if there are several or none. Reductions and accumulate need it.
    std::optional<PrimitiveId> single_primitive() const noexcept;
    // Whether MPI_BYTE or MPI_PACKED occurs (signature checks accept anything then).
    bool has_byte_or_packed() const noexcept { return byte_or_packed_; }
    // Signature of one item (MPI-4.1 §3.3.1); see TypeSignature.hpp.
    const SigHash& signature() const noexcept { return typed_->sig(); }
    std::int64_t external32_size() const noexcept { return external32_size_; }  // per item

    // --- Layout -----------------------------------------------------------
    // One item's data is the single byte range [true_lb, true_lb + size).
    bool is_contiguous() const noexcept { return contiguous_; }
    // Contiguous and extent == size: `count` items are one byte range
    // starting at base + true_lb().
    bool is_dense() const noexcept { return dense_; }
    // Contiguous byte pieces of one item (0 for an empty type, 1 if contiguous).
    std::int64_t segment_count() const noexcept { return bytes_->pieces; }
    // Visits the pieces of one item in typemap order: offset from the item
    // base (may be negative) and length. Calls fn segment_count() times.
    void for_each_segment(const std::function<void(std::int64_t offset, std::int64_t length)>& fn) const;
    const LayoutSeq& byte_layout() const noexcept { return *bytes_; }
    const LayoutSeq& typed_layout() const noexcept { return *typed_; }

    // --- Identity and decoding (§5.1.13) -----------------------------------
    bool is_predefined() const noexcept { return predefined_ != PrimitiveId::kNone; }
    PrimitiveId predefined_id() const noexcept { return predefined_; }  // kNone if derived
    const char* name() const noexcept;  // "MPI_INT" for predefined types, "" otherwise
    Combiner combiner() const noexcept { return combiner_; }
    Envelope envelope() const noexcept;
    const Contents& contents() const noexcept { return contents_; }

private:
    friend struct detail::TypeFactory;
    Datatype() = default;

    std::int64_t size_ = 0;
    std::int64_t lb_ = 0;
    std::int64_t ub_ = 0;
    std::int64_t true_lb_ = 0;
    std::int64_t true_ub_ = 0;
    std::int64_t alignment_ = 1;
    std::int64_t elements_ = 0;
    std::int64_t external32_size_ = 0;
    bool explicit_bounds_ = false;
    bool byte_or_packed_ = false;
    bool homogeneous_ = false;
    bool contiguous_ = true;
    bool dense_ = true;
    PrimitiveId single_ = PrimitiveId::kNone;
    PrimitiveId predefined_ = PrimitiveId::kNone;
    LayoutPtr bytes_;
    LayoutPtr typed_;
    Combiner combiner_ = Combiner::Named;
    Contents contents_;
};

}  // namespace progsim::dt
