// Constructors of MPI-4.1 §5.1.2 (contiguous, vector, indexed, struct, ...),
// §5.1.7 (resized) and MPI_Type_dup. Each one validates, records its
// arguments for MPI_Type_get_contents and describes itself as blocks for
// TypeFactory::compose.
#include "datatype/TypeConstructors.hpp"

#include <string>
#include <utility>

#include "datatype/CheckedMath.hpp"
#include "datatype/TypeFactory.hpp"

namespace progsim::dt {

using detail::Block;
using detail::TypeFactory;

namespace detail {

void check_count(std::int64_t count, const char* what) {
    if (count < 0)
        throw DatatypeError(ErrorClass::Count, std::string("negative ") + what + ": " + std::to_string(count));
}

void check_array(const void* array, std::int64_t count, const char* what) {
    if (array == nullptr && count > 0)
        throw DatatypeError(ErrorClass::Arg, std::string("null array for ") + what + " > 0");
}

}  // namespace detail

namespace {

void check_type(const DatatypePtr& t, const char* what) {
    if (!t) throw DatatypeError(ErrorClass::Type, std::string("null datatype: ") + what);
}

void check_blocklength(std::int64_t blocklength) {
    if (blocklength < 0)
        throw DatatypeError(ErrorClass::Arg, "negative blocklength: " + std::to_string(blocklength));
}

void check_same_length(std::size_t a, std::size_t b, const char* what) {
    if (a != b) throw DatatypeError(ErrorClass::Arg, std::string("array lengths differ: ") + what);
}

}  // namespace

DatatypePtr predefined(PrimitiveId id) { return TypeFactory::predefined(id); }

DatatypePtr make_contiguous(std::int64_t count, const DatatypePtr& oldtype) {
    detail::check_count(count, "count");
    check_type(oldtype, "oldtype");
    Contents c{{count}, {}, {oldtype}};
    return TypeFactory::compose({Block{oldtype.get(), 0, count, oldtype->extent()}}, false,
                                Combiner::Contiguous, std::move(c));
}

DatatypePtr make_vector(std::int64_t count, std::int64_t blocklength, std::int64_t stride,
                        const DatatypePtr& oldtype) {
    detail::check_count(count, "count");
    check_blocklength(blocklength);
    check_type(oldtype, "oldtype");
    const std::int64_t extent = oldtype->extent();
    const std::int64_t stride_bytes = detail::mul(stride, extent, "vector stride");
    Contents c{{count, blocklength, stride}, {}, {oldtype}};
    return TypeFactory::compose({Block{oldtype.get(), 0, blocklength, extent, count, stride_bytes}}, false,
                                Combiner::Vector, std::move(c));
}

DatatypePtr make_hvector(std::int64_t count, std::int64_t blocklength, std::int64_t stride_bytes,
                         const DatatypePtr& oldtype) {
    detail::check_count(count, "count");
    check_blocklength(blocklength);
    check_type(oldtype, "oldtype");
    Contents c{{count, blocklength}, {stride_bytes}, {oldtype}};
    return TypeFactory::compose(
        {Block{oldtype.get(), 0, blocklength, oldtype->extent(), count, stride_bytes}}, false,
        Combiner::Hvector, std::move(c));
}

namespace {

// indexed and hindexed: displacements scaled by `unit` bytes.
std::vector<Block> indexed_blocks(const std::vector<std::int64_t>& blocklengths,
                                  const std::vector<std::int64_t>& displacements, std::int64_t unit,
                                  const Datatype& oldtype) {
    std::vector<Block> blocks;
    blocks.reserve(blocklengths.size());
    for (std::size_t i = 0; i < blocklengths.size(); ++i) {
        check_blocklength(blocklengths[i]);
        blocks.push_back(Block{&oldtype, detail::mul(displacements[i], unit, "displacement"), blocklengths[i],
                               oldtype.extent()});
    }
    return blocks;
}

}  // namespace

DatatypePtr make_indexed(const std::vector<std::int64_t>& blocklengths,
                         const std::vector<std::int64_t>& displacements, const DatatypePtr& oldtype) {
    check_same_length(blocklengths.size(), displacements.size(), "blocklengths, displacements");
    check_type(oldtype, "oldtype");
    auto blocks = indexed_blocks(blocklengths, displacements, oldtype->extent(), *oldtype);
    Contents c;
    c.integers.reserve(1 + 2 * blocklengths.size());
    c.integers.push_back(static_cast<std::int64_t>(blocklengths.size()));
    c.integers.insert(c.integers.end(), blocklengths.begin(), blocklengths.end());
    c.integers.insert(c.integers.end(), displacements.begin(), displacements.end());
    c.datatypes.push_back(oldtype);
    return TypeFactory::compose(blocks, false, Combiner::Indexed, std::move(c));
}

DatatypePtr make_hindexed(const std::vector<std::int64_t>& blocklengths,
                          const std::vector<std::int64_t>& byte_displacements, const DatatypePtr& oldtype) {
    check_same_length(blocklengths.size(), byte_displacements.size(), "blocklengths, displacements");
    check_type(oldtype, "oldtype");
    auto blocks = indexed_blocks(blocklengths, byte_displacements, 1, *oldtype);
    Contents c;
    c.integers.reserve(1 + blocklengths.size());
    c.integers.push_back(static_cast<std::int64_t>(blocklengths.size()));
    c.integers.insert(c.integers.end(), blocklengths.begin(), blocklengths.end());
    c.addresses = byte_displacements;
    c.datatypes.push_back(oldtype);
    return TypeFactory::compose(blocks, false, Combiner::Hindexed, std::move(c));
}

DatatypePtr make_indexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& displacements,
                               const DatatypePtr& oldtype) {
    check_blocklength(blocklength);
    check_type(oldtype, "oldtype");
    const std::vector<std::int64_t> lengths(displacements.size(), blocklength);
    auto blocks = indexed_blocks(lengths, displacements, oldtype->extent(), *oldtype);
    Contents c;
    c.integers.reserve(2 + displacements.size());
    c.integers.push_back(static_cast<std::int64_t>(displacements.size()));
    c.integers.push_back(blocklength);
    c.integers.insert(c.integers.end(), displacements.begin(), displacements.end());
    c.datatypes.push_back(oldtype);
    return TypeFactory::compose(blocks, false, Combiner::IndexedBlock, std::move(c));
}

DatatypePtr make_hindexed_block(std::int64_t blocklength, const std::vector<std::int64_t>& byte_displacements,
                                const DatatypePtr& oldtype) {
    check_blocklength(blocklength);
    check_type(oldtype, "oldtype");
    const std::vector<std::int64_t> lengths(byte_displacements.size(), blocklength);
    auto blocks = indexed_blocks(lengths, byte_displacements, 1, *oldtype);
    Contents c{{static_cast<std::int64_t>(byte_displacements.size()), blocklength}, byte_displacements, {oldtype}};
    return TypeFactory::compose(blocks, false, Combiner::HindexedBlock, std::move(c));
}

DatatypePtr make_struct(const std::vector<std::int64_t>& blocklengths,
                        const std::vector<std::int64_t>& byte_displacements,
                        const std::vector<DatatypePtr>& types) {
    check_same_length(blocklengths.size(), byte_displacements.size(), "blocklengths, displacements");
    check_same_length(blocklengths.size(), types.size(), "blocklengths, types");
    std::vector<Block> blocks;
    blocks.reserve(types.size());
    for (std::size_t i = 0; i < types.size(); ++i) {
        check_type(types[i], "array_of_types");
        check_blocklength(blocklengths[i]);
        blocks.push_back(Block{types[i].get(), byte_displacements[i], blocklengths[i], types[i]->extent()});
    }
    Contents c;
    c.integers.reserve(1 + blocklengths.size());
    c.integers.push_back(static_cast<std::int64_t>(blocklengths.size()));
    c.integers.insert(c.integers.end(), blocklengths.begin(), blocklengths.end());
    c.addresses = byte_displacements;
    c.datatypes = types;
    return TypeFactory::compose(blocks, true, Combiner::Struct, std::move(c));
}

DatatypePtr make_resized(const DatatypePtr& oldtype, std::int64_t lb, std::int64_t extent) {
    check_type(oldtype, "oldtype");
    return TypeFactory::resized(oldtype, lb, extent, Combiner::Resized, Contents{{}, {lb, extent}, {oldtype}});
}

DatatypePtr make_dup(const DatatypePtr& oldtype) {
    check_type(oldtype, "oldtype");
    return TypeFactory::retag(*oldtype, Combiner::Dup, Contents{{}, {}, {oldtype}});
}

DatatypePtr with_large_counts(const DatatypePtr& type) {
    check_type(type, "type");
    if (type->is_predefined()) throw DatatypeError(ErrorClass::Type, "with_large_counts: predefined type");
    Contents c = type->contents();
    c.large_counts = true;
    return TypeFactory::retag(*type, type->combiner(), std::move(c));
}

}  // namespace progsim::dt
