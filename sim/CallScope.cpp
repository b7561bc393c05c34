#include "sim/CallScope.hpp"

#include "sim/Simulation.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <ctime>

namespace progsim::sim {

namespace {

double thread_cpu_seconds()
{
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

}  // namespace

Rank* calling_rank()
{
  Simulation* simulation = Simulation::current();
  return simulation ? simulation->current_rank() : nullptr;
}

namespace {
const void* g_interposed_caller = nullptr;  // ranks run one at a time
}

InterposedCall::InterposedCall(const void* program_caller) : previous_(g_interposed_caller)
{
  g_interposed_caller = program_caller;
}

InterposedCall::~InterposedCall()
{
  g_interposed_caller = previous_;
}

CallScope::CallScope(Rank* rank, const char* name, CallKind kind, const void* caller)
    : rank_(rank), interacting_(kind == CallKind::Interacting)
{
  if (!rank_)
    return;
  // First: the rest of the call may use stack that shares a page with a
  // watched local variable of the program.
  memory::MemoryWatch::instance().enter_mpi(rank_->id(), __builtin_frame_address(0));
  if (g_interposed_caller)
    caller = g_interposed_caller;
  const RuntimeParameters& params = Simulation::current()->parameters();
  if (params.measure_user_time)
    rank_->clock().charge_cpu(thread_cpu_seconds() - rank_->user_cpu_mark);
  rank_->enter_call(name, caller);
  rank_->set_state(RankState::InMpi);
  rank_->clock().charge_cpu(params.call_cost);
  if (interacting_) {
    // The debt, the user time and this call's cost are executed as one.
    deferral_was_allowed_ = rank_->clock().allow_deferral(false);
    rank_->clock().flush();
  }
}

CallScope::~CallScope()
{
  if (!rank_)
    return;
  // Writes to watched memory made inside MPI (a receive into it) wake pollers.
  memory::MemoryWatch::instance().deliver_pending();
  if (interacting_)
    rank_->clock().allow_deferral(deferral_was_allowed_);
  rank_->leave_call();
  rank_->left_mpi_at = rank_->clock().now();
  if (rank_->state() == RankState::InMpi || rank_->state() == RankState::Blocked)
    rank_->set_state(RankState::UserCode);
  if (Simulation::current()->parameters().measure_user_time)
    rank_->user_cpu_mark = thread_cpu_seconds();
  memory::MemoryWatch::instance().leave_mpi(rank_->id());  // last, see enter_mpi
}

}  // namespace progsim::sim
