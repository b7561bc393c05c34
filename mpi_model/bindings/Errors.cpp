// MPI-4.1 §9.3-9.5: error handlers and error codes. Error handlers are
// attributes of the communicator objects (inherited by the communicators
// created from them); MPI_Comm_create_errhandler handlers are called with
// the communicator and the error code.

#include "bindings/Binding.hpp"

#include <algorithm>
#include <cstring>

using namespace progsim;
using namespace progsim::mpi;

namespace {

bool is_predefined_errhandler(MPI_Errhandler h)
{
  return h == MPI_ERRORS_ARE_FATAL || h == MPI_ERRORS_RETURN || h == MPI_ERRORS_ABORT;
}

// Error codes added by MPI_Add_error_class / MPI_Add_error_code (MPI-4.1
// §9.5; process-local): code MPI_ERR_LASTCODE + 1 + i is entry i.
std::vector<AddedErrorCode>& added_codes(int rank)
{
  return MpiModel::instance().process(rank).added_error_codes;
}

const AddedErrorCode* added_code(int rank, int code)
{
  auto& codes = added_codes(rank);
  int index = code - MPI_ERR_LASTCODE - 1;
  return index >= 0 && index < static_cast<int>(codes.size()) ? &codes[static_cast<size_t>(index)] : nullptr;
}

}  // namespace

extern "C" {

int PMPI_Comm_create_errhandler(MPI_Comm_errhandler_function* fn, MPI_Errhandler* errhandler)
{
  Binding b("MPI_Comm_create_errhandler");
  if (int err = b.check_initialized())
    return err;
  if (!fn || !errhandler)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "null function or result pointer");
  Process& p = b.model().process(b.world());
  *errhandler = p.add_errhandler(fn);
  return MPI_SUCCESS;
}

int PMPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler)
{
  Binding b("MPI_Comm_set_errhandler");
  if (int err = b.check_initialized())
    return err;
  Communicator* c = b.model().communicators().get(comm, b.world());
  if (!c)
    return b.error(MPI_COMM_WORLD, MPI_ERR_COMM, comm == MPI_COMM_NULL ? "MPI_COMM_NULL" : "unknown communicator handle");
  UserErrhandler* user = b.model().process(b.world()).errhandler(errhandler);
  if (!is_predefined_errhandler(errhandler) && (!user || user->freed))
    return b.error(comm, MPI_ERR_ARG, "unknown error handler");
  c->errhandler = errhandler;
  return MPI_SUCCESS;
}

int PMPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler)
{
  Binding b("MPI_Comm_get_errhandler");
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  *errhandler = c->errhandler;
  return MPI_SUCCESS;
}

int PMPI_Errhandler_free(MPI_Errhandler* errhandler)
{
  Binding b("MPI_Errhandler_free");
  if (UserErrhandler* user = b.rank() ? b.model().process(b.world()).errhandler(*errhandler) : nullptr) {
    // Communicators using it keep it (MPI-4.1 §9.3.4); the handle is not reused.
    user->freed = true;
  } else if (!is_predefined_errhandler(*errhandler)) {
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "unknown error handler");
  }
  *errhandler = MPI_ERRHANDLER_NULL;
  return MPI_SUCCESS;
}

int PMPI_Comm_call_errhandler(MPI_Comm comm, int errorcode)
{
  Binding b("MPI_Comm_call_errhandler");
  if (int err = b.check_initialized())
    return err;
  const Communicator* c = nullptr;
  if (int err = b.resolve_comm(comm, c))
    return err;
  b.error(comm, errorcode, "raised by the program");
  return MPI_SUCCESS;
}

int PMPI_Error_string(int errorcode, char* string, int* resultlen)
{
  Binding b("MPI_Error_string");
  std::string text;
  if (const AddedErrorCode* added = b.rank() ? added_code(b.world(), errorcode) : nullptr) {
    text = added->text;
  } else {
    if (!is_valid_error_code(errorcode))
      return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "error code " + std::to_string(errorcode) + " is not valid");
    text = std::string(error_class_name(errorcode)) + ": " + error_class_text(errorcode);
  }
  text.resize(std::min<size_t>(text.size(), MPI_MAX_ERROR_STRING - 1));
  std::memcpy(string, text.c_str(), text.size() + 1);
  *resultlen = static_cast<int>(text.size());
  return MPI_SUCCESS;
}

int PMPI_Error_class(int errorcode, int* errorclass)
{
  Binding b("MPI_Error_class");
  if (const AddedErrorCode* added = b.rank() ? added_code(b.world(), errorcode) : nullptr) {
    *errorclass = added->error_class;
    return MPI_SUCCESS;
  }
  if (!is_valid_error_code(errorcode))
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "error code " + std::to_string(errorcode) + " is not valid");
  *errorclass = errorcode;
  return MPI_SUCCESS;
}

int PMPI_Add_error_class(int* errorclass)
{
  Binding b("MPI_Add_error_class");
  if (int err = b.check_initialized())
    return err;
  auto& codes = added_codes(b.world());
  int code = MPI_ERR_LASTCODE + 1 + static_cast<int>(codes.size());
  codes.push_back(AddedErrorCode{code, ""});
  *errorclass = code;
  return MPI_SUCCESS;
}

int PMPI_Add_error_code(int errorclass, int* errorcode)
{
  Binding b("MPI_Add_error_code");
  if (int err = b.check_initialized())
    return err;
  const AddedErrorCode* cls = added_code(b.world(), errorclass);
  bool valid_class = is_valid_error_code(errorclass) || (cls && cls->error_class == errorclass);
  if (!valid_class)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "error class " + std::to_string(errorclass) + " is not valid");
  auto& codes = added_codes(b.world());
  int code = MPI_ERR_LASTCODE + 1 + static_cast<int>(codes.size());
  codes.push_back(AddedErrorCode{errorclass, ""});
  *errorcode = code;
  return MPI_SUCCESS;
}

int PMPI_Add_error_string(int errorcode, const char* string)
{
  Binding b("MPI_Add_error_string");
  if (int err = b.check_initialized())
    return err;
  auto& codes = added_codes(b.world());
  int index = errorcode - MPI_ERR_LASTCODE - 1;
  if (index < 0 || index >= static_cast<int>(codes.size()))
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG,
                   "error code " + std::to_string(errorcode) + " was not added by MPI_Add_error_class/code");
  if (std::strlen(string) >= MPI_MAX_ERROR_STRING)
    return b.error(MPI_COMM_WORLD, MPI_ERR_ARG, "error string longer than MPI_MAX_ERROR_STRING - 1");
  codes[static_cast<size_t>(index)].text = string;
  return MPI_SUCCESS;
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Comm_create_errhandler)
PROGSIM_MPI_ALIAS(MPI_Comm_set_errhandler)
PROGSIM_MPI_ALIAS(MPI_Comm_get_errhandler)
PROGSIM_MPI_ALIAS(MPI_Errhandler_free)
PROGSIM_MPI_ALIAS(MPI_Comm_call_errhandler)
PROGSIM_MPI_ALIAS(MPI_Error_string)
PROGSIM_MPI_ALIAS(MPI_Error_class)
PROGSIM_MPI_ALIAS(MPI_Add_error_class)
PROGSIM_MPI_ALIAS(MPI_Add_error_code)
PROGSIM_MPI_ALIAS(MPI_Add_error_string)

PROGSIM_MPI1_ALIAS(Errhandler_create, Comm_create_errhandler)
PROGSIM_MPI1_ALIAS(Errhandler_set, Comm_set_errhandler)
PROGSIM_MPI1_ALIAS(Errhandler_get, Comm_get_errhandler)
