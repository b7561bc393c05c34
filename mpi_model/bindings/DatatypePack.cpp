// MPI-4.1 §5.2 (MPI_Pack, MPI_Unpack, MPI_Pack_size) and §5.2.2 (the
// "external32" forms), each with its large-count variant (_c, §19.2). The
// packed format is the engine's packed stream (datatype/Pack.hpp), so
// packed data can be sent as MPI_PACKED and received with the original
// type, and conversely.

#include "bindings/Datatypes.hpp"

#include "datatype/External32.hpp"
#include "datatype/Pack.hpp"

#include <cstring>

using namespace progsim;
using namespace progsim::mpi;

namespace {

// The committed type of a pack/unpack call; errors are raised on `comm`.
int resolve_committed(const Binding& b, MPI_Datatype datatype, MPI_Comm comm, dt::DatatypePtr& type)
{
  if (int err = resolve_type(b, datatype, type, "datatype", comm))
    return err;
  if (!b.model().datatypes().is_committed(datatype))
    return b.error(comm, MPI_ERR_TYPE, "the datatype is not committed (MPI_Type_commit)");
  return MPI_SUCCESS;
}

int check_count(const Binding& b, long long count, const char* what, MPI_Comm comm)
{
  if (count < 0)
    return b.error(comm, MPI_ERR_COUNT, std::string("negative ") + what + " " + std::to_string(count));
  return MPI_SUCCESS;
}

int check_datarep(const Binding& b, const char* datarep)
{
  if (!datarep)
    return null_arg(b, "datarep");
  if (std::strcmp(datarep, "external32") != 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   std::string("unsupported data representation \"") + datarep + "\" (only \"external32\")");
  return MPI_SUCCESS;
}

// The packed buffer and the position in it of a pack or unpack call.
template <class Position>
int check_position(const Binding& b, MPI_Comm comm, const Position* position, const void* buf, std::int64_t size,
                   const char* which, const char* buf_name)
{
  if (!position)
    return null_arg(b, "position", comm);
  if (size < 0 || *position < 0 || *position > size)
    return b.error(comm, MPI_ERR_ARG,
                   "position " + std::to_string(*position) + " outside the " + which + " buffer of " +
                       std::to_string(size) + " bytes");
  if (!buf && size > 0)
    return null_arg(b, buf_name, comm);
  return MPI_SUCCESS;
}

// Pack and unpack into a user buffer with a position, for both formats.
template <class Position>
int pack_common(const Binding& b, MPI_Comm comm, bool external, const void* inbuf, std::int64_t incount,
                MPI_Datatype datatype, void* outbuf, std::int64_t outsize, Position* position)
{
  dt::DatatypePtr t;
  if (int err = check_count(b, incount, "incount", comm))
    return err;
  if (int err = resolve_committed(b, datatype, comm, t))
    return err;
  if (int err = check_position(b, comm, position, outbuf, outsize, "output", "outbuf"))
    return err;
  return engine_call(b, comm, [&] {
    auto pos = static_cast<std::size_t>(*position);
    auto* out = static_cast<std::byte*>(outbuf);
    if (external)
      dt::pack_external32(inbuf, incount, *t, out, static_cast<std::size_t>(outsize), pos);
    else
      dt::pack(inbuf, incount, *t, out, static_cast<std::size_t>(outsize), pos);
    *position = static_cast<Position>(pos);
    return MPI_SUCCESS;
  });
}

template <class Position>
int unpack_common(const Binding& b, MPI_Comm comm, bool external, const void* inbuf, std::int64_t insize,
                  Position* position, void* outbuf, std::int64_t outcount, MPI_Datatype datatype)
{
  dt::DatatypePtr t;
  if (int err = check_count(b, outcount, "outcount", comm))
    return err;
  if (int err = resolve_committed(b, datatype, comm, t))
    return err;
  if (int err = check_position(b, comm, position, inbuf, insize, "input", "inbuf"))
    return err;
  return engine_call(b, comm, [&] {
    auto pos = static_cast<std::size_t>(*position);
    const auto* in = static_cast<const std::byte*>(inbuf);
    if (external)
      dt::unpack_external32(in, static_cast<std::size_t>(insize), pos, outbuf, outcount, *t);
    else
      dt::unpack(in, static_cast<std::size_t>(insize), pos, outbuf, outcount, *t);
    *position = static_cast<Position>(pos);
    return MPI_SUCCESS;
  });
}

// MPI_Pack(_c) and MPI_Unpack(_c): on a communicator.
template <class Position>
int pack_buffer(const char* call, const void* inbuf, std::int64_t incount, MPI_Datatype datatype, void* outbuf,
                std::int64_t outsize, Position* position, MPI_Comm comm)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  return pack_common(b, comm, false, inbuf, incount, datatype, outbuf, outsize, position);
}

template <class Position>
int unpack_buffer(const char* call, const void* inbuf, std::int64_t insize, Position* position, void* outbuf,
                  std::int64_t outcount, MPI_Datatype datatype, MPI_Comm comm)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  return unpack_common(b, comm, false, inbuf, insize, position, outbuf, outcount, datatype);
}

// An upper bound of the bytes MPI_Pack needs: exactly incount * size here.
int pack_size(const char* call, std::int64_t incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  if (int err = check_count(b, incount, "incount", comm))
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t, "datatype", comm))
    return err;
  if (!size)
    return null_arg(b, "size", comm);
  return engine_call(b, comm, [&] {
    *size = dt::packed_size(*t, incount);
    return MPI_SUCCESS;
  });
}

// MPI_Pack_external(_c) and MPI_Unpack_external(_c).
template <class Position>
int pack_external(const char* call, const char datarep[], const void* inbuf, std::int64_t incount,
                  MPI_Datatype datatype, void* outbuf, std::int64_t outsize, Position* position)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  if (int err = check_datarep(b, datarep))
    return err;
  return pack_common(b, MPI_COMM_WORLD, true, inbuf, incount, datatype, outbuf, outsize, position);
}

template <class Position>
int unpack_external(const char* call, const char datarep[], const void* inbuf, std::int64_t insize,
                    Position* position, void* outbuf, std::int64_t outcount, MPI_Datatype datatype)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  if (int err = check_datarep(b, datarep))
    return err;
  return unpack_common(b, MPI_COMM_WORLD, true, inbuf, insize, position, outbuf, outcount, datatype);
}

template <class Size>
int pack_external_size(const char* call, const char datarep[], std::int64_t incount, MPI_Datatype datatype,
                       Size* size)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  if (int err = check_datarep(b, datarep))
    return err;
  if (int err = check_count(b, incount, "incount", MPI_COMM_WORLD))
    return err;
  dt::DatatypePtr t;
  if (int err = resolve_type(b, datatype, t))
    return err;
  if (!size)
    return null_arg(b, "size");
  return engine_call(b, MPI_COMM_WORLD, [&] {
    *size = static_cast<Size>(dt::external32_packed_size(*t, incount));
    return MPI_SUCCESS;
  });
}

}  // namespace

extern "C" {

int PMPI_Pack(const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf, int outsize, int* position,
              MPI_Comm comm)
{
  return pack_buffer("MPI_Pack", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int PMPI_Pack_c(const void* inbuf, MPI_Count incount, MPI_Datatype datatype, void* outbuf, MPI_Count outsize,
                MPI_Count* position, MPI_Comm comm)
{
  return pack_buffer("MPI_Pack_c", inbuf, incount, datatype, outbuf, outsize, position, comm);
}

int PMPI_Unpack(const void* inbuf, int insize, int* position, void* outbuf, int outcount, MPI_Datatype datatype,
                MPI_Comm comm)
{
  return unpack_buffer("MPI_Unpack", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

int PMPI_Unpack_c(const void* inbuf, MPI_Count insize, MPI_Count* position, void* outbuf, MPI_Count outcount,
                  MPI_Datatype datatype, MPI_Comm comm)
{
  return unpack_buffer("MPI_Unpack_c", inbuf, insize, position, outbuf, outcount, datatype, comm);
}

// MPI-4.1 §5.2: MPI_UNDEFINED when the size does not fit in an int (as in
// MPICH).
int PMPI_Pack_size(int incount, MPI_Datatype datatype, MPI_Comm comm, int* size)
{
  MPI_Count n = 0;
  int err = pack_size("MPI_Pack_size", incount, datatype, comm, size ? &n : nullptr);
  if (err == MPI_SUCCESS)
    *size = int_or_undefined(n);
  return err;
}

int PMPI_Pack_size_c(MPI_Count incount, MPI_Datatype datatype, MPI_Comm comm, MPI_Count* size)
{
  return pack_size("MPI_Pack_size_c", incount, datatype, comm, size);
}

int PMPI_Pack_external(const char datarep[], const void* inbuf, int incount, MPI_Datatype datatype, void* outbuf,
                       MPI_Aint outsize, MPI_Aint* position)
{
  return pack_external("MPI_Pack_external", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

int PMPI_Pack_external_c(const char datarep[], const void* inbuf, MPI_Count incount, MPI_Datatype datatype,
                         void* outbuf, MPI_Count outsize, MPI_Count* position)
{
  return pack_external("MPI_Pack_external_c", datarep, inbuf, incount, datatype, outbuf, outsize, position);
}

int PMPI_Unpack_external(const char datarep[], const void* inbuf, MPI_Aint insize, MPI_Aint* position,
                         void* outbuf, int outcount, MPI_Datatype datatype)
{
  return unpack_external("MPI_Unpack_external", datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

int PMPI_Unpack_external_c(const char datarep[], const void* inbuf, MPI_Count insize, MPI_Count* position,
                           void* outbuf, MPI_Count outcount, MPI_Datatype datatype)
{
  return unpack_external("MPI_Unpack_external_c", datarep, inbuf, insize, position, outbuf, outcount, datatype);
}

int PMPI_Pack_external_size(const char datarep[], int incount, MPI_Datatype datatype, MPI_Aint* size)
{
  return pack_external_size("MPI_Pack_external_size", datarep, incount, datatype, size);
}

int PMPI_Pack_external_size_c(const char datarep[], MPI_Count incount, MPI_Datatype datatype, MPI_Count* size)
{
  return pack_external_size("MPI_Pack_external_size_c", datarep, incount, datatype, size);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Pack)
PROGSIM_MPI_ALIAS(MPI_Pack_c)
PROGSIM_MPI_ALIAS(MPI_Unpack)
PROGSIM_MPI_ALIAS(MPI_Unpack_c)
PROGSIM_MPI_ALIAS(MPI_Pack_size)
PROGSIM_MPI_ALIAS(MPI_Pack_size_c)
PROGSIM_MPI_ALIAS(MPI_Pack_external)
PROGSIM_MPI_ALIAS(MPI_Pack_external_c)
PROGSIM_MPI_ALIAS(MPI_Unpack_external)
PROGSIM_MPI_ALIAS(MPI_Unpack_external_c)
PROGSIM_MPI_ALIAS(MPI_Pack_external_size)
PROGSIM_MPI_ALIAS(MPI_Pack_external_size_c)
