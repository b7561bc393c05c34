// Names of MPI's predefined datatypes and reduction operations, as they
// appear in traces ("dt", "op"), and back.
#pragma once

#include <mpi.h>

#include <string>

namespace progsim::traces {

// nullptr when `type` / `op` is not predefined.
const char* predefined_datatype_name(MPI_Datatype type);
const char* predefined_op_name(MPI_Op op);
// MPI_DATATYPE_NULL / MPI_OP_NULL for unknown names.
MPI_Datatype predefined_datatype(const std::string& name);
MPI_Op predefined_op(const std::string& name);

}  // namespace progsim::traces
