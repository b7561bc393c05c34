#include "datatype/Pack.hpp"

#include <algorithm>
#include <cstring>
#include <memory>
#include <string>

#include "datatype/CheckedMath.hpp"
#include "datatype/DatatypeError.hpp"
#include "datatype/LayoutWalk.hpp"

namespace progsim::dt {

using detail::Addr;
using detail::addr_of;
using detail::ptr;

namespace {

// Validates a message of `count` items and returns its packed size.
std::int64_t message_size(const Datatype& type, std::int64_t count) {
    if (count < 0) throw DatatypeError(ErrorClass::Count, "negative count: " + std::to_string(count));
    std::int64_t bytes, span;
    if (!detail::mul_ok(count, type.size(), bytes)) detail::overflow("message size");
    if (!detail::mul_ok(count, type.extent(), span)) detail::overflow("message extent");
    return bytes;
}

[[noreturn]] void fail_truncate(const char* who, std::int64_t need, std::int64_t have) {
    throw DatatypeError(ErrorClass::Truncate, std::string(who) + ": " + std::to_string(need) +
                                                  " bytes needed, " + std::to_string(have) + " available");
}

// memcpy, with the common small sizes inlined.
inline void copy_bytes(std::byte* dst, const std::byte* src, std::int64_t n) {
    switch (n) {
        case 1: std::memcpy(dst, src, 1); return;
        case 2: std::memcpy(dst, src, 2); return;
        case 4: std::memcpy(dst, src, 4); return;
        case 8: std::memcpy(dst, src, 8); return;
        case 12: std::memcpy(dst, src, 12); return;
        case 16: std::memcpy(dst, src, 16); return;
        default: std::memcpy(dst, src, static_cast<std::size_t>(n)); return;
    }
}

// Packs stream bytes [from, to) of the message into out.
void gather(const Datatype& type, Addr base, std::int64_t from, std::int64_t to, std::byte* out) {
    detail::walk_message_bytes(type, base, from, to, [&out](Addr a, std::int64_t len) {
        copy_bytes(out, ptr(a), len);
        out += len;
    });
}

// Unpacks stream bytes [from, to) of the message from in.
void scatter(const Datatype& type, Addr base, std::int64_t from, std::int64_t to, const std::byte* in) {
    detail::walk_message_bytes(type, base, from, to, [&in](Addr a, std::int64_t len) {
        copy_bytes(ptr(a), in, len);
        in += len;
    });
}

// The first n packed bytes are one byte range starting at base + true_lb.
bool is_linear(const Datatype& type, std::int64_t n) {
    return type.is_dense() || (type.is_contiguous() && n <= type.size());
}

void check_range(const char* who, std::int64_t total, std::int64_t offset, std::int64_t nbytes) {
    if (offset < 0 || nbytes < 0) throw DatatypeError(ErrorClass::Arg, std::string(who) + ": negative range");
    if (nbytes > total || offset > total - nbytes) fail_truncate(who, offset + nbytes, total);
}

}  // namespace

std::int64_t packed_size(const Datatype& type, std::int64_t count) { return message_size(type, count); }

void pack(const void* inbuf, std::int64_t count, const Datatype& type, std::byte* out, std::size_t outsize,
          std::size_t& position) {
    const std::int64_t n = message_size(type, count);
    if (position > outsize || static_cast<std::uint64_t>(n) > outsize - position)
        fail_truncate("MPI_Pack", static_cast<std::int64_t>(position) + n, static_cast<std::int64_t>(outsize));
    gather(type, addr_of(inbuf), 0, n, out + position);
    position += static_cast<std::size_t>(n);
}

void unpack(const std::byte* in, std::size_t insize, std::size_t& position, void* outbuf, std::int64_t count,
            const Datatype& type) {
    const std::int64_t n = message_size(type, count);
    if (position > insize || static_cast<std::uint64_t>(n) > insize - position)
        fail_truncate("MPI_Unpack", static_cast<std::int64_t>(position) + n, static_cast<std::int64_t>(insize));
    scatter(type, addr_of(outbuf), 0, n, in + position);
    position += static_cast<std::size_t>(n);
}

void pack_range(const void* inbuf, std::int64_t count, const Datatype& type, std::int64_t offset,
                std::int64_t nbytes, void* packed) {
    check_range("pack_range", message_size(type, count), offset, nbytes);
    gather(type, addr_of(inbuf), offset, offset + nbytes, static_cast<std::byte*>(packed));
}

void unpack_range(const void* packed, std::int64_t offset, std::int64_t nbytes, void* outbuf, std::int64_t count,
                  const Datatype& type) {
    check_range("unpack_range", message_size(type, count), offset, nbytes);
    scatter(type, addr_of(outbuf), offset, offset + nbytes, static_cast<const std::byte*>(packed));
}

std::int64_t copy_typed(const void* src, std::int64_t scount, const Datatype& stype, void* dst,
                        std::int64_t rcount, const Datatype& rtype, std::int64_t max_bytes) {
    const std::int64_t n =
        std::max<std::int64_t>(0, std::min({message_size(stype, scount), message_size(rtype, rcount), max_bytes}));
    if (n == 0) return 0;
    const Addr s = addr_of(src), d = addr_of(dst);
    const bool s_linear = is_linear(stype, n), d_linear = is_linear(rtype, n);
    if (s_linear && d_linear) {
        std::memmove(ptr(detail::at(d, rtype.true_lb())), ptr(detail::at(s, stype.true_lb())),
                     static_cast<std::size_t>(n));
    } else if (s_linear) {
        scatter(rtype, d, 0, n, ptr(detail::at(s, stype.true_lb())));
    } else if (d_linear) {
        gather(stype, s, 0, n, ptr(detail::at(d, rtype.true_lb())));
    } else {
        constexpr std::int64_t kChunk = std::int64_t{64} * 1024;
        const std::int64_t chunk = std::min(n, kChunk);
        auto bounce = std::make_unique<std::byte[]>(static_cast<std::size_t>(chunk));
        for (std::int64_t from = 0; from < n; from += chunk) {
            const std::int64_t to = std::min(n, from + chunk);
            gather(stype, s, from, to, bounce.get());
            scatter(rtype, d, from, to, bounce.get());
        }
    }
    return n;
}

}  // namespace progsim::dt
