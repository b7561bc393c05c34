// A composable hash of a type signature (MPI-4.1 §3.3.1, §5.1): the sequence
// of basic element types, pair types counted as their two components.
//
// H(e_0 .. e_{n-1}) = sum_i v(e_i) * B^(n-1-i)  mod 2^61-1
//
// Concatenation and k-fold repetition are O(1) and O(log k), so the signature
// of `count` items of any type, or of any prefix of it, costs no more than a
// walk down the layout tree: nothing is expanded per element.
#pragma once

#include <cstdint>

#include "datatype/PrimitiveType.hpp"

namespace progsim::dt {

struct SigHash {
    std::uint64_t hash = 0;   // polynomial hash, in [0, 2^61-1)
    std::uint64_t power = 1;  // B^length, kept to make concatenation O(1)
    std::int64_t length = 0;  // number of basic elements

    friend bool operator==(const SigHash& a, const SigHash& b) noexcept {
        return a.hash == b.hash && a.length == b.length;
    }
    friend bool operator!=(const SigHash& a, const SigHash& b) noexcept { return !(a == b); }
};

// The signature of one basic element (a non-pair predefined type). Types
// of one C storage type hash alike (PrimitiveInfo::matching_id).
SigHash sig_element(PrimitiveId basic);
// The signature of one element of a predefined type (pairs: value, index).
SigHash sig_primitive(PrimitiveId id);
SigHash sig_concat(const SigHash& a, const SigHash& b) noexcept;
SigHash sig_repeat(const SigHash& a, std::int64_t times) noexcept;

}  // namespace progsim::dt
