#include "core/ErrorHandling.hpp"

#include "MpiModel.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/ProgramCallHook.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace progsim::mpi {

namespace {

struct ErrorClassInfo {
  int code;
  const char* name;
  const char* text;
};

#define PROGSIM_ERROR(NAME, TEXT) {NAME, #NAME, TEXT}
const ErrorClassInfo kErrorClasses[] = {
    PROGSIM_ERROR(MPI_SUCCESS, "no error"),
    PROGSIM_ERROR(MPI_ERR_BUFFER, "invalid buffer pointer"),
    PROGSIM_ERROR(MPI_ERR_COUNT, "invalid count argument"),
    PROGSIM_ERROR(MPI_ERR_TYPE, "invalid datatype"),
    PROGSIM_ERROR(MPI_ERR_TAG, "invalid tag"),
    PROGSIM_ERROR(MPI_ERR_COMM, "invalid communicator"),
    PROGSIM_ERROR(MPI_ERR_RANK, "invalid rank"),
    PROGSIM_ERROR(MPI_ERR_REQUEST, "invalid request"),
    PROGSIM_ERROR(MPI_ERR_ROOT, "invalid root"),
    PROGSIM_ERROR(MPI_ERR_GROUP, "invalid group"),
    PROGSIM_ERROR(MPI_ERR_OP, "invalid operation"),
    PROGSIM_ERROR(MPI_ERR_TOPOLOGY, "invalid topology"),
    PROGSIM_ERROR(MPI_ERR_DIMS, "invalid dimension argument"),
    PROGSIM_ERROR(MPI_ERR_ARG, "invalid argument of some other kind"),
    PROGSIM_ERROR(MPI_ERR_UNKNOWN, "unknown error"),
    PROGSIM_ERROR(MPI_ERR_TRUNCATE, "message truncated on receive"),
    PROGSIM_ERROR(MPI_ERR_OTHER, "known error not in this list"),
    PROGSIM_ERROR(MPI_ERR_INTERN, "internal MPI (implementation) error"),
    PROGSIM_ERROR(MPI_ERR_IN_STATUS, "error code is in status"),
    PROGSIM_ERROR(MPI_ERR_PENDING, "pending request"),
    PROGSIM_ERROR(MPI_ERR_ACCESS, "permission denied"),
    PROGSIM_ERROR(MPI_ERR_AMODE, "error related to the amode passed to MPI_FILE_OPEN"),
    PROGSIM_ERROR(MPI_ERR_ASSERT, "invalid assertion argument"),
    PROGSIM_ERROR(MPI_ERR_BAD_FILE, "invalid file name"),
    PROGSIM_ERROR(MPI_ERR_BASE, "invalid base argument"),
    PROGSIM_ERROR(MPI_ERR_CONVERSION, "error in a user-supplied data conversion function"),
    PROGSIM_ERROR(MPI_ERR_DISP, "invalid displacement argument"),
    PROGSIM_ERROR(MPI_ERR_DUP_DATAREP, "data representation already defined"),
    PROGSIM_ERROR(MPI_ERR_FILE_EXISTS, "file exists"),
    PROGSIM_ERROR(MPI_ERR_FILE_IN_USE, "file in use"),
    PROGSIM_ERROR(MPI_ERR_FILE, "invalid file handle"),
    PROGSIM_ERROR(MPI_ERR_INFO_KEY, "info key too long"),
    PROGSIM_ERROR(MPI_ERR_INFO_NOKEY, "info key not defined"),
    PROGSIM_ERROR(MPI_ERR_INFO_VALUE, "info value too long"),
    PROGSIM_ERROR(MPI_ERR_INFO, "invalid info argument"),
    PROGSIM_ERROR(MPI_ERR_IO, "I/O error"),
    PROGSIM_ERROR(MPI_ERR_KEYVAL, "invalid keyval"),
    PROGSIM_ERROR(MPI_ERR_LOCKTYPE, "invalid locktype argument"),
    PROGSIM_ERROR(MPI_ERR_NAME, "invalid service name"),
    PROGSIM_ERROR(MPI_ERR_NO_MEM, "out of memory"),
    PROGSIM_ERROR(MPI_ERR_NOT_SAME, "collective argument not identical on all processes"),
    PROGSIM_ERROR(MPI_ERR_NO_SPACE, "not enough space"),
    PROGSIM_ERROR(MPI_ERR_NO_SUCH_FILE, "file does not exist"),
    PROGSIM_ERROR(MPI_ERR_PORT, "invalid port name"),
    PROGSIM_ERROR(MPI_ERR_PROC_ABORTED, "operation on an aborted process"),
    PROGSIM_ERROR(MPI_ERR_QUOTA, "quota exceeded"),
    PROGSIM_ERROR(MPI_ERR_READ_ONLY, "read-only file or file system"),
    PROGSIM_ERROR(MPI_ERR_RMA_ATTACH, "memory cannot be attached"),
    PROGSIM_ERROR(MPI_ERR_RMA_CONFLICT, "conflicting accesses to window"),
    PROGSIM_ERROR(MPI_ERR_RMA_RANGE, "target memory is not part of the window"),
    PROGSIM_ERROR(MPI_ERR_RMA_SHARED, "memory cannot be shared"),
    PROGSIM_ERROR(MPI_ERR_RMA_SYNC, "wrong synchronization of RMA calls"),
    PROGSIM_ERROR(MPI_ERR_RMA_FLAVOR, "passed window has the wrong flavor for the called function"),
    PROGSIM_ERROR(MPI_ERR_SERVICE, "invalid service name"),
    PROGSIM_ERROR(MPI_ERR_SESSION, "invalid session handle"),
    PROGSIM_ERROR(MPI_ERR_SIZE, "invalid size argument"),
    PROGSIM_ERROR(MPI_ERR_SPAWN, "error in spawning processes"),
    PROGSIM_ERROR(MPI_ERR_UNSUPPORTED_DATAREP, "unsupported data representation"),
    PROGSIM_ERROR(MPI_ERR_UNSUPPORTED_OPERATION, "unsupported operation"),
    PROGSIM_ERROR(MPI_ERR_VALUE_TOO_LARGE, "value is too large to store"),
    PROGSIM_ERROR(MPI_ERR_WIN, "invalid window argument"),
    PROGSIM_ERROR(MPI_ERR_ERRHANDLER, "invalid errhandler argument"),
};
#undef PROGSIM_ERROR

const ErrorClassInfo* find(int code)
{
  for (const auto& info : kErrorClasses)
    if (info.code == code)
      return &info;
  return nullptr;
}

}  // namespace

const char* error_class_name(int error_class)
{
  const ErrorClassInfo* info = find(error_class);
  return info ? info->name : "MPI_ERR_UNKNOWN";
}

const char* error_class_text(int error_class)
{
  const ErrorClassInfo* info = find(error_class);
  return info ? info->text : "unknown error code";
}

bool is_valid_error_code(int code)
{
  return find(code) != nullptr;
}

namespace {

// Applies `handler` to an error of `rank`; `object` is the handle a user
// handler gets (a communicator or a window: both are ints).
int handle_error(sim::Rank* rank, MPI_Errhandler handler, int object, int error_class, const char* call,
                 const std::string& detail)
{
  MpiModel& model = MpiModel::instance();
  UserErrhandler* user = handler == MPI_ERRORS_RETURN ? nullptr : model.process(rank->id()).errhandler(handler);
  if (handler == MPI_ERRORS_RETURN || user)
    sim::notify_failed_call(*rank, call, error_class_name(error_class));  // the program goes on
  if (handler == MPI_ERRORS_RETURN)
    return error_class;
  if (user) {
    MPI_Comm handle = object;
    int code = error_class;
    if (user->fn)
      call_user_code(rank, [&] { user->fn(&handle, &code); });
    return error_class;
  }
  const char* handler_name = handler == MPI_ERRORS_ABORT ? "MPI_ERRORS_ABORT" : "MPI_ERRORS_ARE_FATAL";
  // Under progsim replay, the trace line of the call (a program's calls are
  // named by the rank and call alone).
  std::string replayed = rank->trace_location();
  std::string message = "rank " + std::to_string(rank->id()) + ": " + call +
                        (replayed.empty() ? "" : " at " + replayed) + ": " + error_class_name(error_class) +
                        " (" + error_class_text(error_class) + ")" + (detail.empty() ? "" : ": " + detail) + " at " +
                        sim::format_time(rank->clock().now()) + "; the error handler is " + handler_name;
  rank->set_state(sim::RankState::Failed);
  rank->end_reason = std::string("fatal MPI error in ") + call;
  sim::Simulation::current()->end_run(sim::Outcome::Aborted, message, 1);
}

}  // namespace

int raise_error(MPI_Comm comm, int error_class, const char* call, const std::string& detail)
{
  sim::Rank* rank = sim::calling_rank();
  if (!rank)
    return error_class;
  // The handler of the communicator the error is raised on, as this process
  // sees it; errors on an invalid communicator go to MPI_COMM_WORLD's.
  MpiModel& model = MpiModel::instance();
  Communicator* c = model.communicators().get(comm, rank->id());
  if (!c)
    c = model.communicators().get(MPI_COMM_WORLD, rank->id());
  MPI_Errhandler handler = c ? c->errhandler : MPI_ERRORS_ARE_FATAL;
  return handle_error(rank, handler, c ? c->handle : comm, error_class, call, detail);
}

int raise_object_error(int object, MPI_Errhandler handler, int error_class, const char* call,
                       const std::string& detail)
{
  sim::Rank* rank = sim::calling_rank();
  if (!rank)
    return error_class;
  return handle_error(rank, handler, object, error_class, call, detail);
}

}  // namespace progsim::mpi
