// MPI-4.1 §9.3-9.5: error handlers and error codes.

#include "bindings/Binding.hpp"

#include <algorithm>
#include <cstring>

using namespace progsim;

namespace {

MPI_Errhandler* errhandler_slot(sim::Rank* rank, MPI_Comm comm)
{
  mpi::Process& process = mpi::MpiModel::instance().process(rank->id());
  if (comm == MPI_COMM_WORLD)
    return &process.world_errhandler;
  if (comm == MPI_COMM_SELF)
    return &process.self_errhandler;
  return nullptr;
}

bool is_predefined_errhandler(MPI_Errhandler h)
{
  return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT;
}

}  // namespace

extern "C" {

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Comm_set_errhandler");
  if (int err = mpi::require_initialized(scope.rank(), "MPI_Comm_set_errhandler"))
    return err;
  MPI_Errhandler* slot = errhandler_slot(scope.rank(), comm);
  if (!slot)
    return mpi::raise_error(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_set_errhandler", "unknown communicator handle");
  if (!is_predefined_errhandler(errhandler))
    return mpi::raise_error(comm, MPI_ERR_ARG, "MPI_Comm_set_errhandler", "unknown error handler");
  *slot = errhandler;
  return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Comm_get_errhandler");
  if (int err = mpi::require_initialized(scope.rank(), "MPI_Comm_get_errhandler"))
    return err;
  MPI_Errhandler* slot = errhandler_slot(scope.rank(), comm);
  if (!slot)
    return mpi::raise_error(MPI_COMM_WORLD, MPI_ERR_COMM, "MPI_Comm_get_errhandler", "unknown communicator handle");
  *errhandler = *slot;
  return MPI_SUCCESS;
}

int PMPI_Errhandler_free(MPI_Errhandler* errhandler)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Errhandler_free");
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Comm_call_errhandler");
  mpi::raise_error(comm, errorcode, "MPI_Comm_call_errhandler", "raised by the program");
  return MPI_SUCCESS;
}

int PMPI_Error_string(int errorcode, char* string, int* resultlen)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Error_string");
  if (!mpi::is_valid_error_code(errorcode))
    return mpi::raise_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_string",
                            "error code " + std::to_string(errorcode) + " is not valid");
  std::string text = std::string(mpi::error_class_name(errorcode)) + ": " + mpi::error_class_text(errorcode);
  text.resize(std::min<size_t>(text.size(), MPI_MAX_ERROR_STRING - 1));
  std::memcpy(string, text.c_str(), text.size() + 1);
  *resultlen = static_cast<int>(text.size());
  return MPI_SUCCESS;
}

int PMPI_Error_class(int errorcode, int* errorclass)
{
  sim::CallScope scope(mpi::binding_rank(), "MPI_Error_class");
  if (!mpi::is_valid_error_code(errorcode))
    return mpi::raise_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Error_class",
                            "error code " + std::to_string(errorcode) + " is not valid");
  *errorclass = errorcode;
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Comm_set_errhandler)
PROGSIM_MPI_ALIAS(MPI_Comm_get_errhandler)
PROGSIM_MPI_ALIAS(MPI_Errhandler_free)
PROGSIM_MPI_ALIAS(MPI_Comm_call_errhandler)
PROGSIM_MPI_ALIAS(MPI_Error_string)
PROGSIM_MPI_ALIAS(MPI_Error_class)
