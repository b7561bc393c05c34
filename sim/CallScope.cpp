#include "sim/CallScope.hpp"

#include "sim/OutputCapture.hpp"
#include "sim/ProgramCallHook.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <cerrno>
#include <ctime>

namespace progsim::sim {

namespace {

double thread_cpu_seconds()
{
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

ProgramCallHook g_program_call_hook = nullptr;
FailedCallHook g_failed_call_hook = nullptr;

}  // namespace

void set_program_call_hook(ProgramCallHook hook)
{
  g_program_call_hook = hook;
}

void set_failed_call_hook(FailedCallHook hook)
{
  g_failed_call_hook = hook;
}

void notify_failed_call(Rank& rank, const char* name, const char* error)
{
  if (g_failed_call_hook)
    g_failed_call_hook(rank, name, error);
}

Rank* calling_rank()
{
  Simulation* simulation = Simulation::current();
  return simulation ? simulation->current_rank() : nullptr;
}

// Per rank, not global: the interposed call may block, and other ranks
// call MPI meanwhile (a global once gave them this rank's call site).
InterposedCall::InterposedCall(const void* program_caller) : rank_(calling_rank())
{
  if (!rank_)
    return;
  previous_ = rank_->interposed_caller;
  rank_->interposed_caller = program_caller;
  memory::MemoryWatch& watch = memory::MemoryWatch::instance();
  if (!watch.idle()) {
    watch.enter_mpi(rank_->id(), __builtin_frame_address(0));
    holds_pages_ = true;
  }
}

InterposedCall::~InterposedCall()
{
  if (!rank_)
    return;
  rank_->interposed_caller = previous_;
  if (holds_pages_)
    memory::MemoryWatch::instance().leave_mpi(rank_->id());
}

// A local query (MPI_Type_size, MPI_Comm_rank, MPI_Wtime...) whose cost
// stays deferred cannot give control to another rank, so the bookkeeping
// that only matters then is skipped: saving the C library's state (errno is
// kept by hand), holding watched stack pages. Programs that make millions of
// such calls (MPICH's datatype pools) spend most of their time here. Not
// inline: nested calls, measured user time, any watched memory.
bool CallScope::stays_inline(const RuntimeParameters& params) const
{
  return kind_ == CallKind::LocalQuery && !params.measure_user_time && !rank_->current_call() &&
         memory::MemoryWatch::instance().idle() && rank_->clock().defers(params.call_cost);
}

CallScope::CallScope(Rank* rank, const char* name, CallKind kind, const void* caller)
    : rank_(rank), kind_(kind)
{
  if (!rank_)
    return;
  if (rank_->interposed_caller)
    caller = rank_->interposed_caller;
  else if (g_program_call_hook && rank_->program_calling())
    g_program_call_hook(*rank_, name, kind == CallKind::LocalQuery);
  const RuntimeParameters& params = Simulation::current()->parameters();
  inline_ = stays_inline(params);
  if (inline_) {
    // What the program wrote into the C streams' buffers stays there: no
    // other rank runs before this one gives control away, and then
    // (OutputCapture::yield_point) it is forwarded as this rank's output.
    saved_errno_ = errno;
    rank_->enter_inline_call(name, caller);
    rank_->enter_inline_query(rank_->clock().now());
  } else {
    // First: the rest of the call may use stack that shares a page with a
    // watched local variable of the program.
    memory::MemoryWatch::instance().enter_mpi(rank_->id(), __builtin_frame_address(0));
    if (params.measure_user_time)
      rank_->clock().charge_cpu(thread_cpu_seconds() - rank_->user_cpu_mark);
    rank_->enter_call(name, caller);
    rank_->set_state(RankState::InMpi);
  }
  rank_->clock().charge_cpu(params.call_cost);
  if (kind_ == CallKind::Interacting) {
    // The debt, the user time and this call's cost are executed as one; the
    // call's own costs are executed at once.
    deferral_was_allowed_ = rank_->clock().allow_deferral(false);
    rank_->clock().flush();
  } else if (kind_ == CallKind::Stamped) {
    rank_->clock().observe();
  }
}

CallScope::~CallScope()
{
  if (!rank_)
    return;
  // Writes to watched memory made inside MPI (a receive into it) wake
  // pollers. An inline query has none, unless a callback of it watched memory.
  if (!inline_ || !memory::MemoryWatch::instance().idle())
    memory::MemoryWatch::instance().deliver_pending();
  if (inline_) {
    rank_->leave_inline_call();
    errno = saved_errno_;
    rank_->left_mpi_at = rank_->clock().now();
    rank_->leave_inline_query(rank_->left_mpi_at);
    return;
  }
  rank_->leave_call();
  if (kind_ == CallKind::Interacting)
    rank_->clock().allow_deferral(deferral_was_allowed_);
  rank_->left_mpi_at = rank_->clock().now();
  if (rank_->state() == RankState::InMpi || rank_->state() == RankState::Blocked)
    rank_->set_state(RankState::UserCode);
  if (Simulation::current()->parameters().measure_user_time)
    rank_->user_cpu_mark = thread_cpu_seconds();
  memory::MemoryWatch::instance().leave_mpi(rank_->id());  // last, see enter_mpi
}

}  // namespace progsim::sim
