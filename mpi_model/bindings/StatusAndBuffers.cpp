// MPI-4.1 §3.2.5 and §5.1.11 (status inquiries: count, elements) and §3.6
// (the buffer of buffered sends), with their large-count variants (_c,
// §19.2). The helpers work on 64-bit counts; the int versions store
// MPI_UNDEFINED when the value does not fit in an int.

#include "bindings/Datatypes.hpp"

#include "datatype/ElementCount.hpp"

#include <algorithm>
#include <limits>

using namespace progsim;
using namespace progsim::mpi;

namespace {

long long status_bytes(const MPI_Status* status)
{
  auto lo = static_cast<unsigned long long>(static_cast<unsigned int>(status->count_lo));
  auto hi = static_cast<unsigned long long>(static_cast<unsigned int>(status->count_hi_and_cancelled)) >> 1;
  return static_cast<long long>((hi << 32) | lo);
}

void set_status_bytes(MPI_Status* status, long long bytes)
{
  auto b = static_cast<unsigned long long>(bytes);
  status->count_lo = static_cast<int>(b & 0xffffffffULL);
  status->count_hi_and_cancelled = static_cast<int>(((b >> 32) << 1) | (status->count_hi_and_cancelled & 1));
}

// Whole items received, or MPI_UNDEFINED (MPI-4.1 §3.2.5).
// Reading a status is process-local (the status is the program's memory):
// the call may stay deferred (sim/CallScope.hpp).
int get_count(const char* call, const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count)
{
  Binding b(call, sim::CallKind::LocalQuery);
  dt::DatatypePtr t = b.model().datatypes().find_live(datatype);
  if (!t)
    return b.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "invalid datatype");
  std::optional<std::int64_t> items = dt::count_items(*t, status_bytes(status));
  *count = items ? *items : MPI_UNDEFINED;
  return MPI_SUCCESS;
}

// Basic elements received (MPI-4.1 §5.1.11); MPI_UNDEFINED when the data
// ends inside a basic element (sent and received signatures differ), as in
// MPICH.
int get_elements(const char* call, const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count)
{
  Binding b(call, sim::CallKind::LocalQuery);
  dt::DatatypePtr t = b.model().datatypes().find_live(datatype);
  if (!t)
    return b.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "invalid datatype");
  long long bytes = status_bytes(status);
  *count = dt::ends_inside_element(*t, bytes) ? MPI_UNDEFINED : dt::count_elements(*t, bytes);
  return MPI_SUCCESS;
}

// The status then says that `count` basic elements of the type were
// received: whole items, then the bytes of the first elements of the next
// one (found by bisection on the engine's element count, which grows with
// the byte count). MPI_Get_count and MPI_Get_elements give them back.
int set_elements(const char* call, MPI_Status* status, MPI_Datatype datatype, std::int64_t count)
{
  Binding b(call);
  dt::DatatypePtr t = b.model().datatypes().find_live(datatype);
  if (!t)
    return b.error(MPI_COMM_WORLD, MPI_ERR_TYPE, "invalid datatype");
  if (count < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "negative count " + std::to_string(count));
  if (!status || status == MPI_STATUS_IGNORE)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "status is NULL or MPI_STATUS_IGNORE");
  const std::int64_t per_item = t->num_elements();
  if (per_item == 0) {
    if (count != 0)
      return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "the datatype has no basic elements");
    set_status_bytes(status, 0);
    return MPI_SUCCESS;
  }
  const std::int64_t items = count / per_item, rest = count % per_item;
  std::int64_t lo = 0, hi = t->size();  // bytes of the partial item: smallest with `rest` elements
  while (lo < hi) {
    std::int64_t mid = lo + (hi - lo) / 2;
    if (dt::count_elements(*t, mid) >= rest)
      hi = mid;
    else
      lo = mid + 1;
  }
  // The status holds 63 bits of byte count (the 64th is the cancelled flag).
  if (items > (std::numeric_limits<long long>::max() - lo) / std::max<std::int64_t>(t->size(), 1))
    return b.error(MPI_COMM_WORLD, MPI_ERR_COUNT, "count " + std::to_string(count) + " is too large");
  set_status_bytes(status, items * t->size() + lo);
  return MPI_SUCCESS;
}

int buffer_attach(const char* call, void* buffer, std::int64_t size)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  BufferedSendBuffer& buf = b.p2p().bsend_buffer(b.world());
  if (buf.attached())
    return b.error(MPI_COMM_WORLD, MPI_ERR_BUFFER, "a buffer is already attached");
  if (size < 0)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "negative size");
  buf.attach(buffer, static_cast<std::size_t>(size));
  return MPI_SUCCESS;
}

// Blocks until every buffered message has left the buffer (MPI-4.1 §3.6.1):
// a blocked call, so it progresses the rank's decoupled activities.
int buffer_detach(const char* call, void* buffer_addr, MPI_Count* size)
{
  Binding b(call);
  if (int err = b.check_initialized())
    return err;
  BufferedSendBuffer& buf = b.p2p().bsend_buffer(b.world());
  if (!buf.attached())
    return b.error(MPI_COMM_WORLD, MPI_ERR_BUFFER, "no buffer is attached");
  if (buf.pending_messages() > 0)
    b.progress().wait_until([&buf] { return buf.pending_messages() == 0; },
                            [&buf, call] {
                              return std::string(call) + " (" + std::to_string(buf.pending_messages()) +
                                     " buffered message(s) still to be sent)";
                            });
  *static_cast<void**>(buffer_addr) = buf.base();
  *size = static_cast<MPI_Count>(buf.size());
  buf.detach();
  return MPI_SUCCESS;
}

}  // namespace

extern "C" {

int PMPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count)
{
  MPI_Count n = 0;
  int err = get_count("MPI_Get_count", status, datatype, &n);
  if (err == MPI_SUCCESS)
    *count = int_or_undefined(n);
  return err;
}

int PMPI_Get_count_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count)
{
  return get_count("MPI_Get_count_c", status, datatype, count);
}

int PMPI_Get_elements(const MPI_Status* status, MPI_Datatype datatype, int* count)
{
  MPI_Count n = 0;
  int err = get_elements("MPI_Get_elements", status, datatype, &n);
  if (err == MPI_SUCCESS)
    *count = int_or_undefined(n);
  return err;
}

int PMPI_Get_elements_x(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count)
{
  return get_elements("MPI_Get_elements_x", status, datatype, count);
}

int PMPI_Get_elements_c(const MPI_Status* status, MPI_Datatype datatype, MPI_Count* count)
{
  return get_elements("MPI_Get_elements_c", status, datatype, count);
}

int PMPI_Status_set_elements(MPI_Status* status, MPI_Datatype datatype, int count)
{
  return set_elements("MPI_Status_set_elements", status, datatype, count);
}

int PMPI_Status_set_elements_x(MPI_Status* status, MPI_Datatype datatype, MPI_Count count)
{
  return set_elements("MPI_Status_set_elements_x", status, datatype, count);
}

int PMPI_Status_set_elements_c(MPI_Status* status, MPI_Datatype datatype, MPI_Count count)
{
  return set_elements("MPI_Status_set_elements_c", status, datatype, count);
}

int PMPI_Status_set_cancelled(MPI_Status* status, int flag)
{
  Binding b("MPI_Status_set_cancelled");
  status->count_hi_and_cancelled = (status->count_hi_and_cancelled & ~1) | (flag ? 1 : 0);
  return MPI_SUCCESS;
}

// MPI-5.0 §3.2.5 status accessors (for languages that cannot name the
// fields); local, allowed at any time.
int PMPI_Status_get_source(MPI_Status* status, int* source)
{
  *source = status->MPI_SOURCE;
  return MPI_SUCCESS;
}

int PMPI_Status_set_source(MPI_Status* status, int source)
{
  status->MPI_SOURCE = source;
  return MPI_SUCCESS;
}

int PMPI_Status_get_tag(MPI_Status* status, int* tag)
{
  *tag = status->MPI_TAG;
  return MPI_SUCCESS;
}

int PMPI_Status_set_tag(MPI_Status* status, int tag)
{
  status->MPI_TAG = tag;
  return MPI_SUCCESS;
}

int PMPI_Status_get_error(MPI_Status* status, int* error)
{
  *error = status->MPI_ERROR;
  return MPI_SUCCESS;
}

int PMPI_Status_set_error(MPI_Status* status, int error)
{
  status->MPI_ERROR = error;
  return MPI_SUCCESS;
}

int PMPI_Buffer_attach(void* buffer, int size)
{
  return buffer_attach("MPI_Buffer_attach", buffer, size);
}

int PMPI_Buffer_attach_c(void* buffer, MPI_Count size)
{
  return buffer_attach("MPI_Buffer_attach_c", buffer, size);
}

// MPI-4.1 §3.6.1: a size that does not fit in an int is returned as
// MPI_UNDEFINED (as MPICH does).
int PMPI_Buffer_detach(void* buffer_addr, int* size)
{
  MPI_Count n = 0;
  int err = buffer_detach("MPI_Buffer_detach", buffer_addr, &n);
  if (err == MPI_SUCCESS)
    *size = int_or_undefined(n);
  return err;
}

int PMPI_Buffer_detach_c(void* buffer_addr, MPI_Count* size)
{
  return buffer_detach("MPI_Buffer_detach_c", buffer_addr, size);
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Status_get_source)
PROGSIM_MPI_ALIAS(MPI_Status_set_source)
PROGSIM_MPI_ALIAS(MPI_Status_get_tag)
PROGSIM_MPI_ALIAS(MPI_Status_set_tag)
PROGSIM_MPI_ALIAS(MPI_Status_get_error)
PROGSIM_MPI_ALIAS(MPI_Status_set_error)
PROGSIM_MPI_ALIAS(MPI_Get_count)
PROGSIM_MPI_ALIAS(MPI_Get_count_c)
PROGSIM_MPI_ALIAS(MPI_Get_elements_x)
PROGSIM_MPI_ALIAS(MPI_Get_elements)
PROGSIM_MPI_ALIAS(MPI_Get_elements_c)
PROGSIM_MPI_ALIAS(MPI_Status_set_elements_x)
PROGSIM_MPI_ALIAS(MPI_Status_set_elements)
PROGSIM_MPI_ALIAS(MPI_Status_set_elements_c)
PROGSIM_MPI_ALIAS(MPI_Status_set_cancelled)
PROGSIM_MPI_ALIAS(MPI_Buffer_attach)
PROGSIM_MPI_ALIAS(MPI_Buffer_attach_c)
PROGSIM_MPI_ALIAS(MPI_Buffer_detach)
PROGSIM_MPI_ALIAS(MPI_Buffer_detach_c)
