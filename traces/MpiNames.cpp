#include "traces/MpiNames.hpp"

#include <utility>

namespace progsim::traces {

namespace {

#define PROGSIM_NAMED(handle) {handle, #handle}
const std::pair<MPI_Datatype, const char*> kDatatypes[] = {
    PROGSIM_NAMED(MPI_CHAR),
    PROGSIM_NAMED(MPI_SIGNED_CHAR),
    PROGSIM_NAMED(MPI_UNSIGNED_CHAR),
    PROGSIM_NAMED(MPI_BYTE),
    PROGSIM_NAMED(MPI_WCHAR),
    PROGSIM_NAMED(MPI_SHORT),
    PROGSIM_NAMED(MPI_UNSIGNED_SHORT),
    PROGSIM_NAMED(MPI_INT),
    PROGSIM_NAMED(MPI_UNSIGNED),
    PROGSIM_NAMED(MPI_LONG),
    PROGSIM_NAMED(MPI_UNSIGNED_LONG),
    PROGSIM_NAMED(MPI_LONG_LONG_INT),
    PROGSIM_NAMED(MPI_UNSIGNED_LONG_LONG),
    PROGSIM_NAMED(MPI_FLOAT),
    PROGSIM_NAMED(MPI_DOUBLE),
    PROGSIM_NAMED(MPI_LONG_DOUBLE),
    PROGSIM_NAMED(MPI_C_BOOL),
    PROGSIM_NAMED(MPI_INT8_T),
    PROGSIM_NAMED(MPI_INT16_T),
    PROGSIM_NAMED(MPI_INT32_T),
    PROGSIM_NAMED(MPI_INT64_T),
    PROGSIM_NAMED(MPI_UINT8_T),
    PROGSIM_NAMED(MPI_UINT16_T),
    PROGSIM_NAMED(MPI_UINT32_T),
    PROGSIM_NAMED(MPI_UINT64_T),
    PROGSIM_NAMED(MPI_AINT),
    PROGSIM_NAMED(MPI_COUNT),
    PROGSIM_NAMED(MPI_OFFSET),
    PROGSIM_NAMED(MPI_C_FLOAT_COMPLEX),
    PROGSIM_NAMED(MPI_C_DOUBLE_COMPLEX),
    PROGSIM_NAMED(MPI_C_LONG_DOUBLE_COMPLEX),
    PROGSIM_NAMED(MPI_CXX_BOOL),
    PROGSIM_NAMED(MPI_CXX_FLOAT_COMPLEX),
    PROGSIM_NAMED(MPI_CXX_DOUBLE_COMPLEX),
    PROGSIM_NAMED(MPI_CXX_LONG_DOUBLE_COMPLEX),
    PROGSIM_NAMED(MPI_PACKED),
    PROGSIM_NAMED(MPI_FLOAT_INT),
    PROGSIM_NAMED(MPI_DOUBLE_INT),
    PROGSIM_NAMED(MPI_LONG_INT),
    PROGSIM_NAMED(MPI_2INT),
    PROGSIM_NAMED(MPI_SHORT_INT),
    PROGSIM_NAMED(MPI_LONG_DOUBLE_INT),
    PROGSIM_NAMED(MPI_CHARACTER),
    PROGSIM_NAMED(MPI_LOGICAL),
    PROGSIM_NAMED(MPI_INTEGER),
    PROGSIM_NAMED(MPI_REAL),
    PROGSIM_NAMED(MPI_DOUBLE_PRECISION),
    PROGSIM_NAMED(MPI_COMPLEX),
    PROGSIM_NAMED(MPI_DOUBLE_COMPLEX),
    PROGSIM_NAMED(MPI_2INTEGER),
    PROGSIM_NAMED(MPI_2REAL),
    PROGSIM_NAMED(MPI_2DOUBLE_PRECISION),
    PROGSIM_NAMED(MPI_INTEGER1),
    PROGSIM_NAMED(MPI_INTEGER2),
    PROGSIM_NAMED(MPI_INTEGER4),
    PROGSIM_NAMED(MPI_INTEGER8),
    PROGSIM_NAMED(MPI_REAL4),
    PROGSIM_NAMED(MPI_REAL8),
    PROGSIM_NAMED(MPI_REAL16),
    PROGSIM_NAMED(MPI_COMPLEX8),
    PROGSIM_NAMED(MPI_COMPLEX16),
    PROGSIM_NAMED(MPI_COMPLEX32),
    {MPI_LONG_LONG, "MPI_LONG_LONG"},
};
const std::pair<MPI_Op, const char*> kOps[] = {
    PROGSIM_NAMED(MPI_MAX),
    PROGSIM_NAMED(MPI_MIN),
    PROGSIM_NAMED(MPI_SUM),
    PROGSIM_NAMED(MPI_PROD),
    PROGSIM_NAMED(MPI_LAND),
    PROGSIM_NAMED(MPI_BAND),
    PROGSIM_NAMED(MPI_LOR),
    PROGSIM_NAMED(MPI_BOR),
    PROGSIM_NAMED(MPI_LXOR),
    PROGSIM_NAMED(MPI_BXOR),
    PROGSIM_NAMED(MPI_MINLOC),
    PROGSIM_NAMED(MPI_MAXLOC),
    PROGSIM_NAMED(MPI_REPLACE),
    PROGSIM_NAMED(MPI_NO_OP),
};
#undef PROGSIM_NAMED

template <class Handle, std::size_t N>
const char* name_of(const std::pair<Handle, const char*> (&table)[N], Handle handle)
{
  for (auto& [h, name] : table)
    if (h == handle)
      return name;
  return nullptr;
}

template <class Handle, std::size_t N>
Handle handle_of(const std::pair<Handle, const char*> (&table)[N], std::string_view name, Handle none)
{
  for (auto& [h, n] : table)
    if (name == n)
      return h;
  return none;
}

}  // namespace

const char* predefined_datatype_name(MPI_Datatype type)
{
  return name_of(kDatatypes, type);
}

const char* predefined_op_name(MPI_Op op)
{
  return name_of(kOps, op);
}

MPI_Datatype predefined_datatype(std::string_view name)
{
  return handle_of(kDatatypes, name, MPI_DATATYPE_NULL);
}

MPI_Op predefined_op(std::string_view name)
{
  return handle_of(kOps, name, MPI_OP_NULL);
}

namespace {

struct SplitType {
  int value;
  const char* name;
};
const SplitType kSplitTypes[] = {
    {MPI_COMM_TYPE_SHARED, "MPI_COMM_TYPE_SHARED"},
    {MPI_COMM_TYPE_HW_GUIDED, "MPI_COMM_TYPE_HW_GUIDED"},
    {MPI_COMM_TYPE_HW_UNGUIDED, "MPI_COMM_TYPE_HW_UNGUIDED"},
    {MPI_COMM_TYPE_RESOURCE_GUIDED, "MPI_COMM_TYPE_RESOURCE_GUIDED"},
    {MPI_UNDEFINED, "MPI_UNDEFINED"},
};

}  // namespace

const char* split_type_name(int split_type)
{
  for (const SplitType& t : kSplitTypes)
    if (t.value == split_type)
      return t.name;
  return nullptr;
}

int split_type(const std::string& name)
{
  for (const SplitType& t : kSplitTypes)
    if (name == t.name)
      return t.value;
  return -1;
}

}  // namespace progsim::traces
