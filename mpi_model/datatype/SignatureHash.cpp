#include "datatype/SignatureHash.hpp"

#include <array>

namespace progsim::dt {
namespace {

constexpr std::uint64_t kMod = (std::uint64_t{1} << 61) - 1;
constexpr std::uint64_t kBase = 0x1d8e4e27c47d124fULL % kMod;

std::uint64_t mulmod(std::uint64_t a, std::uint64_t b) noexcept {
    const unsigned __int128 x = static_cast<unsigned __int128>(a) * b;
    std::uint64_t r = (static_cast<std::uint64_t>(x) & kMod) + static_cast<std::uint64_t>(x >> 61);
    r = (r & kMod) + (r >> 61);
    return r >= kMod ? r - kMod : r;
}

std::uint64_t addmod(std::uint64_t a, std::uint64_t b) noexcept {
    const std::uint64_t r = a + b;  // both < 2^61: no overflow
    return r >= kMod ? r - kMod : r;
}

std::uint64_t mix(std::uint64_t x) noexcept {  // splitmix64 finalizer
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

}  // namespace

SigHash sig_element(PrimitiveId basic) {
    SigHash s;
    s.hash = 1 + mix(static_cast<std::uint64_t>(primitive_info(basic).matching_id)) % (kMod - 1);
    s.power = kBase;
    s.length = 1;
    return s;
}

SigHash sig_primitive(PrimitiveId id) {
    static const auto table = [] {
        std::array<SigHash, kMaxPrimitiveIndex + 1> t{};
        for (int index = 1; index <= kMaxPrimitiveIndex; ++index) {
            const auto pid = primitive_from_index(index);
            if (!pid) continue;
            const PrimitiveInfo& info = primitive_info(*pid);
            t[index] = info.elements == 1 ? sig_element(*pid)
                                          : sig_concat(sig_element(info.value_id), sig_element(info.index_id));
        }
        return t;
    }();
    primitive_info(id);  // validates id
    return table[static_cast<int>(id)];
}

SigHash sig_concat(const SigHash& a, const SigHash& b) noexcept {
    SigHash r;
    r.hash = addmod(mulmod(a.hash, b.power), b.hash);
    r.power = mulmod(a.power, b.power);
    r.length = a.length + b.length;
    return r;
}

SigHash sig_repeat(const SigHash& a, std::int64_t times) noexcept {
    // Binary expansion: result = a^times, built from the squares a, a^2, a^4, ...
    SigHash result;
    SigHash square = a;
    std::uint64_t k = times > 0 ? static_cast<std::uint64_t>(times) : 0;
    while (k != 0) {
        if (k & 1) result = sig_concat(result, square);
        k >>= 1;
        if (k != 0) square = sig_concat(square, square);
    }
    return result;
}

}  // namespace progsim::dt
