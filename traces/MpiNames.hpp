// Names of MPI's predefined datatypes, reduction operations and split types,
// as they appear in traces ("dt", "op", "split_type"), and back.
#pragma once

#include <mpi.h>

#include <string>
#include <string_view>

namespace progsim::traces {

// nullptr when `type` / `op` is not predefined.
const char* predefined_datatype_name(MPI_Datatype type);
const char* predefined_op_name(MPI_Op op);
// MPI_DATATYPE_NULL / MPI_OP_NULL for unknown names.
MPI_Datatype predefined_datatype(std::string_view name);
MPI_Op predefined_op(std::string_view name);
// MPI_Comm_split_type's types (MPI_COMM_TYPE_SHARED, ..., MPI_UNDEFINED):
// nullptr / -1 when unknown.
const char* split_type_name(int split_type);
int split_type(const std::string& name);

}  // namespace progsim::traces
