// Shared helpers of the C bindings. Every MPI procedure is implemented as
// PMPI_Name (the profiling interface) with MPI_Name a weak alias to it, and
// starts by creating a Binding naming itself: that opens the CallScope
// (cost, accounting) and gives argument checks that raise MPI errors on the
// right communicator with the call's name.
#pragma once

#include "MpiModel.hpp"
#include "bindings/ThreadCheck.hpp"
#include "core/CallContext.hpp"
#include "core/ErrorHandling.hpp"
#include "p2p/PointToPoint.hpp"
#include "progress/ProgressEngine.hpp"
#include "sim/CallScope.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CallFrames.hpp"

#include <mpi.h>

#include <string>

// Defines MPI_name as a weak alias of PMPI_name (MPI-4.1 §15.2, profiling).
#define PROGSIM_MPI_ALIAS(name) \
  extern "C" __typeof__(P##name) name __attribute__((weak, alias("P" #name), copy(P##name)));

// Defines a procedure removed in MPI-3.0 as another name of its replacement
// (same parameters up to const), as PMPI_old and a weak MPI_old.
#define PROGSIM_MPI1_ALIAS(old_name, new_name)                                                     \
  extern "C" __typeof__(PMPI_##old_name) PMPI_##old_name __attribute__((alias("PMPI_" #new_name))); \
  extern "C" __typeof__(PMPI_##old_name) MPI_##old_name __attribute__((weak, alias("PMPI_" #new_name)));

namespace progsim::mpi {

// The rank calling MPI now; nullptr when MPI is called outside any rank.
// A call from a thread other than the rank's main thread ends the run
// (ThreadCheck.hpp). `caller`: evaluated in the MPI procedure, as for CallScope.
inline sim::Rank* binding_rank(const char* call, const void* caller = __builtin_return_address(0))
{
  return checked_calling_rank(call, caller);
}

// Checks that MPI is initialized and not finalized (MPI-4.1 §11.2.1); raises
// MPI_ERR_OTHER otherwise and returns its code, or MPI_SUCCESS.
int not_usable_error(sim::Rank* rank, const char* call);
inline int require_initialized(sim::Rank* rank, const char* call)
{
  // Inline: every call checks it, local queries (millions in some programs) too.
  return rank && rank->mpi_usable() ? MPI_SUCCESS : not_usable_error(rank, call);
}

// A binding is the call context of the model layers it delegates to
// (core/CallContext.hpp). CallFrames is its first base: built before
// anything else of the call is written, destroyed last.
class Binding : private sim::memory::CallFrames, public CallContext {
public:
  // `caller`: see sim::CallScope (evaluated in the MPI procedure).
  explicit Binding(const char* call, const void* caller = __builtin_return_address(0))
      : Binding(call, sim::CallKind::Interacting, caller)
  {
  }
  // A local query (MPI_Comm_rank...) may leave its cost deferred
  // (sim::CallKind), unless every call progresses (weak-progress-every-call).
  Binding(const char* call, sim::CallKind kind, const void* caller = __builtin_return_address(0));

  // MPI_SUCCESS, or the error (raised) when MPI is not usable now.
  int check_initialized() const { return require_initialized(rank(), call()); }
  int error(MPI_Comm comm, int error_class, const std::string& detail) const
  {
    return raise_error(comm, error_class, call(), detail);
  }
  // The calling process's keyvals (communicator, window and datatype).
  KeyvalTable& keyvals() const { return model().process(world()).keyvals; }
  int resolve_comm(MPI_Comm handle, const Communicator*& comm) const;
  int check_buffer(const void* buf, std::int64_t count, MPI_Datatype datatype, MPI_Comm comm) const;
  // Checks and collects the arguments of a point-to-point operation.
  int p2p_args(const void* buf, std::int64_t count, MPI_Datatype datatype, int peer, int tag, MPI_Comm comm,
               bool receive, OperationArgs& args) const;

private:
  Binding(sim::Rank* rank, const char* call, sim::CallKind kind, const void* caller);

  sim::CallScope scope_;
};

// Whether `count` items of `type` at `buf` would be read or written at the
// null page: a null buffer that is not MPI_BOTTOM with absolute addresses
// (MPI_ERR_BUFFER, with null_buffer_reason as its detail).
bool null_buffer_accessed(const void* buf, std::int64_t count, const dt::Datatype& type);
inline constexpr const char* null_buffer_reason =
    "null buffer with data (only MPI_BOTTOM with a datatype of absolute addresses may be null)";

// Writes a completed request's outcome into an MPI_Status (may be ignored).
void fill_status(MPI_Status* status, const Request& request);
void empty_status(MPI_Status* status);
// Gives the program a handle to `request` (the table marks the call site);
// an active one is held from now on for the overlap meter
// (PointToPoint::held_by_user), until MPI_Wait & co. or MPI_Request_free.
MPI_Request hand_out(const Binding& b, const RequestPtr& request);
// Starts a request made by make_send/make_recv (a buffered send:
// PointToPoint::start_buffered). Returns an MPI error class.
int start_request(const Binding& b, const RequestPtr& request);

}  // namespace progsim::mpi
