// MPI-4.1 chapter 11 (environment): initialization, finalization, abort,
// version inquiries, processor name, and simulated wall-clock time.

#include "bindings/Binding.hpp"
#include "bindings/Communicators.hpp"
#include "progress/FinalizationProgress.hpp"
#include "progress/PolicyCatalog.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/OutputCapture.hpp"
#include "sim/memory/SimulatorThread.hpp"

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/version.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

using namespace progsim;
using progsim::mpi::MpiModel;

namespace progsim::mpi {

// The error of require_initialized (Binding.hpp): MPI is usable between
// MPI_Init and MPI_Finalize (the World Model) or while a session is open
// (MPI-4.1 §11.4.1).
int not_usable_error(sim::Rank* rank, const char* call)
{
  if (!rank)
    return MPI_ERR_OTHER;
  if (!rank->mpi_initialized)
    return raise_error(MPI_COMM_WORLD, MPI_ERR_OTHER, call,
                       rank->used_sessions ? "every session is finalized and MPI_Init was never called"
                                           : "MPI is not initialized (call MPI_Init or MPI_Session_init first)");
  return raise_error(MPI_COMM_WORLD, MPI_ERR_OTHER, call, "MPI was already finalized");
}

namespace {

int initialize(sim::Rank* rank, const char* call, int required, int* provided)
{
  if (!rank)
    return MPI_ERR_OTHER;
  if (rank->mpi_initialized)
    return raise_error(MPI_COMM_WORLD, MPI_ERR_OTHER, call, "MPI is already initialized");
  rank->mpi_initialized = true;
  // Ranks are coroutines of one simulator thread: threads of the program may
  // compute, but only the main thread may call MPI (MPI-4.1 §11.6).
  int level = std::min(required, static_cast<int>(MPI_THREAD_FUNNELED));
  MpiModel::instance().process(rank->id()).thread_level = level;
  MpiModel::instance().process(rank->id()).init_call = call;
  if (provided)
    *provided = level;
  return MPI_SUCCESS;
}

}  // namespace
}  // namespace progsim::mpi

extern "C" {

int PMPI_Init(int*, char***)
{
  sim::CallScope scope(mpi::binding_rank("MPI_Init"), "MPI_Init", sim::CallKind::Interacting);
  return mpi::initialize(scope.rank(), "MPI_Init", MPI_THREAD_SINGLE, nullptr);
}

int PMPI_Init_thread(int*, char***, int required, int* provided)
{
  sim::CallScope scope(mpi::binding_rank("MPI_Init_thread"), "MPI_Init_thread", sim::CallKind::Interacting);
  if (required < MPI_THREAD_SINGLE || required > MPI_THREAD_MULTIPLE)
    return mpi::raise_error(MPI_COMM_WORLD, MPI_ERR_ARG, "MPI_Init_thread",
                            "required thread level " + std::to_string(required) + " is not a valid level");
  return mpi::initialize(scope.rank(), "MPI_Init_thread", required, provided);
}

int PMPI_Finalize(void)
{
  mpi::Binding b("MPI_Finalize");
  if (int err = b.check_initialized())
    return err;
  // MPI-4.1 §11.2.4: first the equivalent of MPI_Comm_free(MPI_COMM_SELF),
  // its attributes' delete callbacks in the reverse order of setting, while
  // MPI is fully usable (MPI_Finalized says false in them).
  if (int err = mpi::finalize_communicators(b))
    return err;
  // MPI-4.1 §11.2.2: finalization executes the rank's remaining decoupled
  // activities (buffered sends, freed requests, those the callbacks just
  // created) and delays its return until no send to this rank can still be
  // cancelled (p2p/SendCancel.cpp).
  int me = b.world();
  b.p2p().begin_finalize(me);
  mpi::run_remaining_activities(me, "MPI_Finalize", mpi::PendingCancellations::WaitFor);
  b.rank()->clock().flush();
  b.rank()->mpi_finalized = true;
  return MPI_SUCCESS;
}

int PMPI_Initialized(int* flag)
{
  sim::Rank* rank = mpi::calling_rank_any_thread();
  sim::CallScope scope(rank, "MPI_Initialized", sim::CallKind::LocalQuery);
  *flag = rank && rank->mpi_initialized;
  return MPI_SUCCESS;
}

int PMPI_Finalized(int* flag)
{
  sim::Rank* rank = mpi::calling_rank_any_thread();
  sim::CallScope scope(rank, "MPI_Finalized", sim::CallKind::LocalQuery);
  *flag = rank && rank->mpi_finalized;
  return MPI_SUCCESS;
}

int PMPI_Query_thread(int* provided)
{
  sim::CallScope scope(mpi::calling_rank_any_thread(), "MPI_Query_thread", sim::CallKind::LocalQuery);
  if (int err = mpi::require_initialized(scope.rank(), "MPI_Query_thread"))
    return err;
  *provided = MpiModel::instance().process(scope.rank()->id()).thread_level;
  return MPI_SUCCESS;
}

int PMPI_Is_thread_main(int* flag)
{
  sim::CallScope scope(mpi::calling_rank_any_thread(), "MPI_Is_thread_main", sim::CallKind::LocalQuery);
  *flag = sim::memory::SimulatorThread::is_current();
  return MPI_SUCCESS;
}

int PMPI_Abort(MPI_Comm comm, int errorcode)
{
  sim::CallScope scope(mpi::binding_rank("MPI_Abort"), "MPI_Abort", sim::CallKind::Interacting);
  sim::Rank* rank = scope.rank();
  if (!rank)
    std::exit(errorcode);
  const char* comm_name = comm == MPI_COMM_WORLD ? "MPI_COMM_WORLD" : comm == MPI_COMM_SELF ? "MPI_COMM_SELF" : "comm";
  rank->set_state(sim::RankState::Failed);
  rank->end_reason = "called MPI_Abort";
  int status = sim::failure_exit_status(errorcode);
  // Aborting any communicator ends the whole job, as mpiexec does.
  sim::Simulation::current()->end_run(sim::Outcome::Aborted,
                                      "rank " + std::to_string(rank->id()) + " called MPI_Abort(" + comm_name + ", " +
                                          std::to_string(errorcode) + ") at " + sim::format_time(rank->clock().now()),
                                      status);
}

int PMPI_Get_version(int* version, int* subversion)
{
  sim::CallScope scope(mpi::calling_rank_any_thread(), "MPI_Get_version", sim::CallKind::LocalQuery);
  *version = MPI_VERSION;
  *subversion = MPI_SUBVERSION;
  return MPI_SUCCESS;
}

int PMPI_Get_library_version(char* version, int* resultlen)
{
  sim::CallScope scope(mpi::calling_rank_any_thread(), "MPI_Get_library_version", sim::CallKind::LocalQuery);
  std::string text = std::string("progsim ") + PROGSIM_VERSION + " (model of an MPI-" + std::to_string(MPI_VERSION) +
                     "." + std::to_string(MPI_SUBVERSION) + " library on SimGrid " +
                     std::to_string(SIMGRID_VERSION_MAJOR) + "." + std::to_string(SIMGRID_VERSION_MINOR) +
                     "), progress policy " + (scope.rank() ? MpiModel::instance().policy_name() : std::string("none"));
  text.resize(std::min<size_t>(text.size(), MPI_MAX_LIBRARY_VERSION_STRING - 1));
  std::memcpy(version, text.c_str(), text.size() + 1);
  *resultlen = static_cast<int>(text.size());
  return MPI_SUCCESS;
}

int PMPI_Get_processor_name(char* name, int* resultlen)
{
  sim::CallScope scope(mpi::binding_rank("MPI_Get_processor_name"), "MPI_Get_processor_name", sim::CallKind::LocalQuery);
  if (!scope.rank())
    return MPI_ERR_OTHER;
  std::string host = scope.rank()->host()->get_name();
  host.resize(std::min<size_t>(host.size(), MPI_MAX_PROCESSOR_NAME - 1));
  std::memcpy(name, host.c_str(), host.size() + 1);
  *resultlen = static_cast<int>(host.size());
  return MPI_SUCCESS;
}

double PMPI_Wtime(void)
{
  sim::CallScope scope(mpi::binding_rank("MPI_Wtime"), "MPI_Wtime", sim::CallKind::LocalQuery);
  return scope.rank() ? scope.rank()->clock().now() : simgrid::s4u::Engine::get_clock();
}

double PMPI_Wtick(void)
{
  sim::CallScope scope(mpi::binding_rank("MPI_Wtick"), "MPI_Wtick", sim::CallKind::LocalQuery);
  return 1e-9;
}

int PMPI_Pcontrol(const int, ...)
{
  return MPI_SUCCESS;
}

// progsim extension: charge `seconds` of computation on the rank's host CPU
// (it competes with progress threads on the same cores). Returns the time.
double progsim_compute(double seconds)
{
  sim::Rank* rank = mpi::binding_rank("progsim_compute");
  if (!rank)
    return 0;
  sim::SimulatorEntry entry(rank->libc());
  rank->clock().charge_cpu(seconds);
  rank->clock().flush();
  return rank->clock().now();
}

}  // extern "C"

PROGSIM_MPI_ALIAS(MPI_Init)
PROGSIM_MPI_ALIAS(MPI_Init_thread)
PROGSIM_MPI_ALIAS(MPI_Finalize)
PROGSIM_MPI_ALIAS(MPI_Initialized)
PROGSIM_MPI_ALIAS(MPI_Finalized)
PROGSIM_MPI_ALIAS(MPI_Query_thread)
PROGSIM_MPI_ALIAS(MPI_Is_thread_main)
PROGSIM_MPI_ALIAS(MPI_Abort)
PROGSIM_MPI_ALIAS(MPI_Get_version)
PROGSIM_MPI_ALIAS(MPI_Get_library_version)
PROGSIM_MPI_ALIAS(MPI_Get_processor_name)
PROGSIM_MPI_ALIAS(MPI_Wtime)
PROGSIM_MPI_ALIAS(MPI_Wtick)
PROGSIM_MPI_ALIAS(MPI_Pcontrol)
