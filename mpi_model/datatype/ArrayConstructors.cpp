// The array constructors: subarray (MPI-4.1 §5.1.3) and darray (§5.1.4).
// Both are built from hvector/hindexed blocks per dimension, fastest
// dimension first, and end resized to [0, product(sizes) * extent(oldtype)).
#include <algorithm>
#include <string>
#include <utility>

#include "datatype/CheckedMath.hpp"
#include "datatype/TypeConstructors.hpp"
#include "datatype/TypeFactory.hpp"

namespace progsim::dt {

using detail::Block;
using detail::TypeFactory;

namespace {

[[noreturn]] void bad(ErrorClass cls, const std::string& what) { throw DatatypeError(cls, what); }

void check_order(Order order, const char* who) {
    if (order != Order::C && order != Order::Fortran) bad(ErrorClass::Arg, std::string(who) + ": invalid order");
}

// Dimensions from fastest- to slowest-varying in memory.
std::vector<std::size_t> fastest_first(std::size_t ndims, Order order) {
    std::vector<std::size_t> dims(ndims);
    for (std::size_t i = 0; i < ndims; ++i) dims[i] = order == Order::C ? ndims - 1 - i : i;
    return dims;
}

void append_ints(std::vector<std::int64_t>& out, const std::vector<std::int64_t>& v) {
    out.insert(out.end(), v.begin(), v.end());
}

}  // namespace

DatatypePtr make_subarray(const std::vector<std::int64_t>& sizes, const std::vector<std::int64_t>& subsizes,
                          const std::vector<std::int64_t>& starts, Order order, const DatatypePtr& oldtype) {
    const std::size_t ndims = sizes.size();
    if (ndims == 0) bad(ErrorClass::Arg, "subarray: ndims must be positive");
    if (subsizes.size() != ndims || starts.size() != ndims) bad(ErrorClass::Arg, "subarray: array lengths differ");
    if (!oldtype) bad(ErrorClass::Type, "subarray: null oldtype");
    check_order(order, "subarray");
    for (std::size_t i = 0; i < ndims; ++i) {
        const std::string dim = " in dimension " + std::to_string(i);
        if (sizes[i] <= 0) bad(ErrorClass::Arg, "subarray: size must be positive" + dim);
        if (subsizes[i] < 0 || subsizes[i] > sizes[i])
            bad(ErrorClass::Arg, "subarray: subsize outside [0, size]" + dim);
        if (starts[i] < 0 || starts[i] > sizes[i] - subsizes[i])
            bad(ErrorClass::Arg, "subarray: start outside [0, size - subsize]" + dim);
    }

    // Row by row: dimension d is subsizes[d] copies of the previous type,
    // stride = bytes of one index step in d.
    DatatypePtr t = oldtype;
    std::int64_t stride = oldtype->extent();
    std::int64_t disp = 0;
    for (std::size_t d : fastest_first(ndims, order)) {
        t = TypeFactory::compose({Block{t.get(), 0, subsizes[d], stride}}, false, Combiner::Hvector, {});
        disp = detail::add(disp, detail::mul(starts[d], stride, "subarray displacement"), "subarray displacement");
        stride = detail::mul(stride, sizes[d], "subarray extent");
    }
    t = TypeFactory::compose({Block{t.get(), disp, 1, 0}}, false, Combiner::Hindexed, {});
    t = TypeFactory::resized(t, 0, stride, Combiner::Resized, {});

    Contents c;
    c.integers.push_back(static_cast<std::int64_t>(ndims));
    append_ints(c.integers, sizes);
    append_ints(c.integers, subsizes);
    append_ints(c.integers, starts);
    c.integers.push_back(static_cast<std::int64_t>(order));
    c.datatypes.push_back(oldtype);
    return TypeFactory::retag(*t, Combiner::Subarray, std::move(c));
}

DatatypePtr make_darray(std::int64_t size, std::int64_t rank, const std::vector<std::int64_t>& gsizes,
                        const std::vector<Distribution>& distribs, const std::vector<std::int64_t>& dargs,
                        const std::vector<std::int64_t>& psizes, Order order, const DatatypePtr& oldtype) {
    const std::size_t ndims = gsizes.size();
    if (size <= 0) bad(ErrorClass::Arg, "darray: size must be positive");
    if (rank < 0 || rank >= size) bad(ErrorClass::Rank, "darray: rank outside [0, size)");
    if (ndims == 0) bad(ErrorClass::Arg, "darray: ndims must be positive");
    if (distribs.size() != ndims || dargs.size() != ndims || psizes.size() != ndims)
        bad(ErrorClass::Arg, "darray: array lengths differ");
    if (!oldtype) bad(ErrorClass::Type, "darray: null oldtype");
    check_order(order, "darray");
    std::int64_t procs = 1;
    for (std::size_t i = 0; i < ndims; ++i) {
        const std::string dim = " in dimension " + std::to_string(i);
        if (gsizes[i] <= 0) bad(ErrorClass::Arg, "darray: gsize must be positive" + dim);
        if (psizes[i] <= 0) bad(ErrorClass::Arg, "darray: psize must be positive" + dim);
        if (distribs[i] != Distribution::Block && distribs[i] != Distribution::Cyclic &&
            distribs[i] != Distribution::None)
            bad(ErrorClass::Arg, "darray: unknown distribution" + dim);
        if (dargs[i] != kDistributeDefaultDarg && dargs[i] <= 0)
            bad(ErrorClass::Arg, "darray: darg must be positive or MPI_DISTRIBUTE_DFLT_DARG" + dim);
        if (distribs[i] == Distribution::None && psizes[i] != 1)
            bad(ErrorClass::Arg, "darray: MPI_DISTRIBUTE_NONE needs psize 1" + dim);
        if (distribs[i] == Distribution::Block && dargs[i] != kDistributeDefaultDarg &&
            detail::mul(dargs[i], psizes[i], "darray block") < gsizes[i])
            bad(ErrorClass::Arg, "darray: block darg * psize < gsize" + dim);
        procs = detail::mul(procs, psizes[i], "darray process count");
    }
    if (procs != size) bad(ErrorClass::Arg, "darray: product of psizes differs from size");

    // Coordinates of `rank` in the row-major process grid (§5.1.4).
    std::vector<std::int64_t> coords(ndims);
    for (std::size_t i = ndims, r = static_cast<std::size_t>(rank); i-- > 0;) {
        coords[i] = static_cast<std::int64_t>(r % static_cast<std::size_t>(psizes[i]));
        r /= static_cast<std::size_t>(psizes[i]);
    }

    // Dimension by dimension, fastest first: the local elements of this
    // process along d as blocks of the previous type, then resized to the
    // whole dimension so the next dimension steps over full rows.
    DatatypePtr t = oldtype;
    std::int64_t unit = oldtype->extent();  // bytes of one index step along d
    for (std::size_t d : fastest_first(ndims, order)) {
        const std::int64_t g = gsizes[d], p = psizes[d], r = coords[d];
        std::vector<Block> blocks;
        if (distribs[d] == Distribution::Cyclic) {
            const std::int64_t b = dargs[d] == kDistributeDefaultDarg ? 1 : dargs[d];
            const std::int64_t first = detail::mul(r, b, "darray offset");
            const std::int64_t period = detail::mul(p, b, "darray stride");
            std::int64_t local = 0;
            if (first < g) local = (g - first) / period * b + std::min(b, (g - first) % period);
            const std::int64_t full = local / b, rem = local % b;
            const std::int64_t period_bytes = detail::mul(period, unit, "darray stride");
            const std::int64_t first_bytes = detail::mul(first, unit, "darray offset");
            blocks.push_back(Block{t.get(), first_bytes, b, unit, full, period_bytes});
            if (rem > 0)
                blocks.push_back(Block{t.get(),
                                       detail::add(first_bytes, detail::mul(full, period_bytes, "darray offset"),
                                                   "darray offset"),
                                       rem, unit});
        } else {  // Block; None is one block over one process
            const std::int64_t b = distribs[d] == Distribution::None ? g
                                   : dargs[d] == kDistributeDefaultDarg ? (g + p - 1) / p
                                                                       : dargs[d];
            const std::int64_t first = distribs[d] == Distribution::None ? 0 : detail::mul(r, b, "darray offset");
            const std::int64_t mine = std::max<std::int64_t>(0, std::min(b, g - first));
            blocks.push_back(Block{t.get(), mine > 0 ? detail::mul(first, unit, "darray offset") : 0, mine, unit});
        }
        t = TypeFactory::compose(blocks, false, Combiner::Hindexed, {});
        const std::int64_t row = detail::mul(g, unit, "darray extent");
        t = TypeFactory::resized(t, 0, row, Combiner::Resized, {});
        unit = row;
    }

    Contents c;
    c.integers = {size, rank, static_cast<std::int64_t>(ndims)};
    append_ints(c.integers, gsizes);
    for (Distribution x : distribs) c.integers.push_back(static_cast<std::int64_t>(x));
    append_ints(c.integers, dargs);
    append_ints(c.integers, psizes);
    c.integers.push_back(static_cast<std::int64_t>(order));
    c.datatypes.push_back(oldtype);
    return TypeFactory::retag(*t, Combiner::Darray, std::move(c));
}

}  // namespace progsim::dt
