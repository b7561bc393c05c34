// Overflow-checked 64-bit arithmetic for sizes, extents and displacements.
// Internal to the datatype engine.
#pragma once

#include <cstdint>
#include <string>

#include "datatype/DatatypeError.hpp"

namespace progsim::dt::detail {

inline bool mul_ok(std::int64_t a, std::int64_t b, std::int64_t& out) noexcept {
    return !__builtin_mul_overflow(a, b, &out);
}
inline bool add_ok(std::int64_t a, std::int64_t b, std::int64_t& out) noexcept {
    return !__builtin_add_overflow(a, b, &out);
}
inline bool sub_ok(std::int64_t a, std::int64_t b, std::int64_t& out) noexcept {
    return !__builtin_sub_overflow(a, b, &out);
}

[[noreturn]] inline void overflow(const char* what) {
    throw DatatypeError(ErrorClass::Other, std::string(what) + " overflows 64-bit arithmetic");
}

inline std::int64_t mul(std::int64_t a, std::int64_t b, const char* what) {
    std::int64_t r;
    if (!mul_ok(a, b, r)) overflow(what);
    return r;
}
inline std::int64_t add(std::int64_t a, std::int64_t b, const char* what) {
    std::int64_t r;
    if (!add_ok(a, b, r)) overflow(what);
    return r;
}

}  // namespace progsim::dt::detail
