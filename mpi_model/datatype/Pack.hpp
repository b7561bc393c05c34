// Moving typed data: MPI_Pack / MPI_Unpack (MPI-4.1 §5.2) and the typed copy
// that delivers a message from a send layout into a receive layout.
//
// All functions take `count` items of `type` at `buf` (item i at
// buf + i * type.extent(); buf may be null for MPI_BOTTOM with absolute
// displacements) and work on the packed stream of those items (see
// Datatype.hpp). They never allocate per element or per item; only
// copy_typed between two non-contiguous layouts uses a bounded bounce buffer.
//
// Errors (DatatypeError): ErrorClass::Count for count < 0,
// ErrorClass::Truncate when the data does not fit, ErrorClass::Other when
// count * size or count * extent overflows.
#pragma once

#include <cstddef>
#include <cstdint>

#include "datatype/Datatype.hpp"

namespace progsim::dt {

// MPI_Pack_size: bytes MPI_Pack needs for count items (count * size).
std::int64_t packed_size(const Datatype& type, std::int64_t count);

// MPI_Pack: appends the packed stream of the items to out[position, outsize)
// and advances position. Throws Truncate (nothing written) if it does not fit.
void pack(const void* inbuf, std::int64_t count, const Datatype& type, std::byte* out, std::size_t outsize,
          std::size_t& position);

// MPI_Unpack: reads count items' worth of packed bytes from
// in[position, insize) into the items at outbuf and advances position.
// Throws Truncate (nothing written) if fewer bytes remain.
void unpack(const std::byte* in, std::size_t insize, std::size_t& position, void* outbuf, std::int64_t count,
            const Datatype& type);

// Partial pack/unpack: bytes [offset, offset + nbytes) of the packed stream
// of the items, to or from the contiguous buffer `packed`. For pipelined or
// chunked transfers. Throws Truncate if the range exceeds count * size.
void pack_range(const void* inbuf, std::int64_t count, const Datatype& type, std::int64_t offset,
                std::int64_t nbytes, void* packed);
void unpack_range(const void* packed, std::int64_t offset, std::int64_t nbytes, void* outbuf, std::int64_t count,
                  const Datatype& type);

// Message delivery: copies the first n = min(scount * ssize, rcount * rsize,
// max_bytes) bytes of the source packed stream into the destination layout
// and returns n. The signatures are not checked here (TypeSignature.hpp) and
// neither is truncation: the caller compares n with scount * ssize and
// reports MPI_ERR_TRUNCATE. A trailing partial item is copied byte-exactly.
// Contiguous sides are copied directly; two non-contiguous layouts go
// through a 64 KiB bounce buffer. Source and destination must not overlap
// (MPI forbids it), except that two identical dense layouts may (memmove).
std::int64_t copy_typed(const void* src, std::int64_t scount, const Datatype& stype, void* dst,
                        std::int64_t rcount, const Datatype& rtype,
                        std::int64_t max_bytes = INT64_MAX);

}  // namespace progsim::dt
