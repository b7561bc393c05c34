// MPI_Pack_external / MPI_Unpack_external / MPI_Pack_external_size for the
// "external32" representation (MPI-4.1 §5.2.2, §13.5.2): big-endian, fixed
// sizes (primitive_info(id).external32_size: MPI_LONG 4 bytes, MPI_WCHAR 2,
// MPI_LONG_DOUBLE a 16-byte IEEE binary128, ...). Integers wider natively
// than in external32 are truncated on pack and sign-extended (signed types)
// or zero-extended on unpack. The datarep string check is the binding's.
#pragma once

#include <cstddef>
#include <cstdint>

#include "datatype/Datatype.hpp"

namespace progsim::dt {

std::int64_t external32_packed_size(const Datatype& type, std::int64_t count);

// Same conventions and errors as pack() / unpack() in Pack.hpp.
void pack_external32(const void* inbuf, std::int64_t count, const Datatype& type, std::byte* out,
                     std::size_t outsize, std::size_t& position);
void unpack_external32(const std::byte* in, std::size_t insize, std::size_t& position, void* outbuf,
                       std::int64_t count, const Datatype& type);

}  // namespace progsim::dt
