#include "datatype/External32.hpp"

#include <cstring>
#include <limits>
#include <string>

#include "datatype/CheckedMath.hpp"
#include "datatype/DatatypeError.hpp"
#include "datatype/LayoutWalk.hpp"

namespace progsim::dt {
namespace {

void put_be(std::byte* out, std::uint64_t v, std::int64_t bytes) {
    for (std::int64_t i = bytes - 1; i >= 0; --i, v >>= 8) out[i] = static_cast<std::byte>(v & 0xff);
}

std::uint64_t get_be(const std::byte* in, std::int64_t bytes) {
    std::uint64_t v = 0;
    for (std::int64_t i = 0; i < bytes; ++i) v = (v << 8) | static_cast<std::uint64_t>(in[i]);
    return v;
}

// Native unsigned integer of 1, 2, 4 or 8 bytes.
std::uint64_t load_uint(const std::byte* p, std::int64_t bytes) {
    switch (bytes) {
        case 1: { std::uint8_t v; std::memcpy(&v, p, 1); return v; }
        case 2: { std::uint16_t v; std::memcpy(&v, p, 2); return v; }
        case 4: { std::uint32_t v; std::memcpy(&v, p, 4); return v; }
        default: { std::uint64_t v; std::memcpy(&v, p, 8); return v; }
    }
}

void store_uint(std::byte* p, std::uint64_t v, std::int64_t bytes) {
    switch (bytes) {
        case 1: { const auto x = static_cast<std::uint8_t>(v); std::memcpy(p, &x, 1); break; }
        case 2: { const auto x = static_cast<std::uint16_t>(v); std::memcpy(p, &x, 2); break; }
        case 4: { const auto x = static_cast<std::uint32_t>(v); std::memcpy(p, &x, 4); break; }
        default: std::memcpy(p, &v, 8); break;
    }
}

// long double <-> big-endian IEEE binary128.
void encode_long_double(const std::byte* src, std::byte* out) {
    if constexpr (std::numeric_limits<long double>::digits == 64) {
        // x87 extended: 64-bit significand with explicit integer bit, then
        // sign and 15-bit exponent (same bias as binary128).
        std::uint64_t mant;
        std::uint16_t se;
        std::memcpy(&mant, src, 8);
        std::memcpy(&se, src + 8, 2);
        const std::uint64_t frac = mant & 0x7fffffffffffffffULL;  // 63 fraction bits
        put_be(out, (static_cast<std::uint64_t>(se) << 48) | (frac >> 15), 8);
        put_be(out + 8, (frac & 0x7fff) << 49, 8);
    } else if constexpr (std::numeric_limits<long double>::digits == 113) {
        std::uint64_t w[2];
        std::memcpy(w, src, 16);
        const bool little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
        put_be(out, little ? w[1] : w[0], 8);
        put_be(out + 8, little ? w[0] : w[1], 8);
    } else {
        throw DatatypeError(ErrorClass::Other, "external32: unsupported long double format");
    }
}

void decode_long_double(const std::byte* in, std::byte* dst) {
    const std::uint64_t hi = get_be(in, 8), lo = get_be(in + 8, 8);
    if constexpr (std::numeric_limits<long double>::digits == 64) {
        const auto se = static_cast<std::uint16_t>(hi >> 48);
        const std::uint64_t frac = ((hi & 0xffffffffffffULL) << 15) | (lo >> 49);  // truncated to 63 bits
        const std::uint64_t integer_bit = (se & 0x7fff) != 0 ? 1ULL << 63 : 0;
        const std::uint64_t mant = integer_bit | frac;
        std::memcpy(dst, &mant, 8);
        std::memcpy(dst + 8, &se, 2);  // the 6 padding bytes are left alone
    } else if constexpr (std::numeric_limits<long double>::digits == 113) {
        const bool little = __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__;
        const std::uint64_t w[2] = {little ? lo : hi, little ? hi : lo};
        std::memcpy(dst, w, 16);
    } else {
        throw DatatypeError(ErrorClass::Other, "external32: unsupported long double format");
    }
}

// One basic element (not a pair). Floats: the IEEE bits, big-endian.
// Complex: two floats of half the size.
void encode_basic(const PrimitiveInfo& info, const std::byte* src, std::byte*& out) {
    const std::int64_t parts = info.type_class == TypeClass::Complex ? 2 : 1;
    const std::int64_t native = info.size / parts, ext = info.external32_size / parts;
    for (std::int64_t k = 0; k < parts; ++k, src += native, out += ext) {
        if ((info.type_class == TypeClass::Float || info.type_class == TypeClass::Complex) &&
            native == static_cast<std::int64_t>(sizeof(long double)) && native > 8)
            encode_long_double(src, out);
        else
            put_be(out, load_uint(src, native), ext);
    }
}

void decode_basic(const PrimitiveInfo& info, const std::byte*& in, std::byte* dst) {
    const std::int64_t parts = info.type_class == TypeClass::Complex ? 2 : 1;
    const std::int64_t native = info.size / parts, ext = info.external32_size / parts;
    for (std::int64_t k = 0; k < parts; ++k, dst += native, in += ext) {
        if ((info.type_class == TypeClass::Float || info.type_class == TypeClass::Complex) &&
            native == static_cast<std::int64_t>(sizeof(long double)) && native > 8) {
            decode_long_double(in, dst);
            continue;
        }
        std::uint64_t v = get_be(in, ext);
        if (info.type_class == TypeClass::SignedInt && ext < 8 && native > ext && (v >> (8 * ext - 1)) & 1)
            v |= ~std::uint64_t{0} << (8 * ext);  // sign-extend
        store_uint(dst, v, native);
    }
}

std::int64_t external_size(const Datatype& type, std::int64_t count) {
    if (count < 0) throw DatatypeError(ErrorClass::Count, "negative count: " + std::to_string(count));
    std::int64_t span;
    if (!detail::mul_ok(count, type.extent(), span)) detail::overflow("message extent");
    return detail::mul(count, type.external32_size(), "message size");
}

[[noreturn]] void fail_truncate(const char* who, std::size_t need, std::size_t have) {
    throw DatatypeError(ErrorClass::Truncate, std::string(who) + ": " + std::to_string(need) +
                                                  " bytes needed, " + std::to_string(have) + " available");
}

}  // namespace

std::int64_t external32_packed_size(const Datatype& type, std::int64_t count) {
    return external_size(type, count);
}

void pack_external32(const void* inbuf, std::int64_t count, const Datatype& type, std::byte* out,
                     std::size_t outsize, std::size_t& position) {
    const auto n = static_cast<std::uint64_t>(external_size(type, count));
    if (position > outsize || n > outsize - position) fail_truncate("MPI_Pack_external", position + n, outsize);
    std::byte* cursor = out + position;
    detail::walk_message_typed(type, detail::addr_of(inbuf), count,
                               [&](detail::Addr a, PrimitiveId id, std::int64_t elems, std::int64_t) {
                                   const PrimitiveInfo& info = primitive_info(id);
                                   for (std::int64_t k = 0; k < elems; ++k) {
                                       const std::byte* e = detail::ptr(detail::at(a, k * info.extent));
                                       if (info.elements == 2) {
                                           encode_basic(primitive_info(info.value_id), e, cursor);
                                           encode_basic(primitive_info(info.index_id), e + info.index_offset, cursor);
                                       } else {
                                           encode_basic(info, e, cursor);
                                       }
                                   }
                               });
    position += n;
}

void unpack_external32(const std::byte* in, std::size_t insize, std::size_t& position, void* outbuf,
                       std::int64_t count, const Datatype& type) {
    const auto n = static_cast<std::uint64_t>(external_size(type, count));
    if (position > insize || n > insize - position) fail_truncate("MPI_Unpack_external", position + n, insize);
    const std::byte* cursor = in + position;
    detail::walk_message_typed(type, detail::addr_of(outbuf), count,
                               [&](detail::Addr a, PrimitiveId id, std::int64_t elems, std::int64_t) {
                                   const PrimitiveInfo& info = primitive_info(id);
                                   for (std::int64_t k = 0; k < elems; ++k) {
                                       std::byte* e = detail::ptr(detail::at(a, k * info.extent));
                                       if (info.elements == 2) {
                                           decode_basic(primitive_info(info.value_id), cursor, e);
                                           decode_basic(primitive_info(info.index_id), cursor, e + info.index_offset);
                                       } else {
                                           decode_basic(info, cursor, e);
                                       }
                                   }
                               });
    position += n;
}

}  // namespace progsim::dt
