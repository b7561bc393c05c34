// A rank's view of simulated time.
//
// Whenever the rank is about to give control back to the simulator (flush,
// block), the output it wrote meanwhile is collected (OutputCapture).
//
// CPU costs (the per-call cost, polls, progress chunks) accumulate as local
// "debt" instead of a SimGrid execution each: a rank's clock is SimGrid's
// clock plus its debt. The debt is executed when it reaches the quantum, or
// when the rank is about to observe something another rank may change (a
// test, a probe: CallScope), so that it sees the world as of its own clock.
// What the rank does that others can observe is stamped with its clock
// rather than executed first: packets leave at the rank's clock
// (mpi_model/transport/Fabric), a posted receive is visible to others from
// its post time. A rank may block with debt: it resumes at the later of its
// clock and the time it was woken (docs/design/time.md).
#pragma once

#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Host.hpp>

namespace progsim::sim {

class RankClock {
public:
  RankClock(int rank, simgrid::s4u::Host* host, double quantum, double observation_lag)
      : rank_(rank), host_(host), quantum_(quantum), lag_(observation_lag)
  {
  }

  // The rank's current simulated time, including its unexecuted debt.
  // Inline, as charge_cpu's deferring case: every MPI call reads and charges
  // the clock, local queries (millions in some programs) included.
  double now() const { return simgrid::s4u::Engine::get_clock() + debt_; }
  // Charges `seconds` of CPU on the rank's host: deferred as debt below the
  // quantum, executed at once when the debt reaches it (time-quantum=0:
  // every cost at once, the reference the deferred path is tested against).
  void charge_cpu(double seconds)
  {
    if (seconds > 0)
      debt_ += seconds;
    if (debt_ > 0 && (!deferral_allowed_ || debt_ >= quantum_))
      flush();
  }
  // Executes the pending debt on the host CPU (competes with other actors there).
  void flush();
  // The rank is about to look at what other ranks or the network changed
  // (arrivals, completions): the debt is executed first if it exceeds the
  // observation lag, so that it sees the world as of its own clock, or as of
  // at most the lag earlier.
  void observe()
  {
    if (debt_ > lag_)
      flush();
  }
  // Whether costs are deferred from now on; returns the previous setting.
  // An interacting MPI call defers none of its own (CallScope).
  bool allow_deferral(bool allowed);
  // The program sleeps: no CPU used, simulated time passes.
  void sleep(double seconds);
  // The rank is about to block (waiting for a message, a semaphore...):
  // forwards its output, which must precede whatever wakes it. Returns the
  // rank's clock, to give back to end_block once woken.
  double begin_block();
  // Woken: the rank goes on at the later of its clock when it blocked and
  // SimGrid's clock (what woke it may have happened before the rank's own
  // clock, while its debt was not executed). Returns whether the rank did
  // wait: false when what woke it happened before the rank's clock, as if
  // it had been there when the rank looked.
  bool end_block(double clock_at_block);
  double pending() const { return debt_; }
  // Whether a rank blocked now, released at SimGrid's clock (debt 0, see
  // end_block), would charge `poll` and look at arrivals (observe) without
  // executing anything: the poll is deferred and within the observation lag.
  // RankProgress then applies such a look without waking the rank.
  bool poll_after_block_defers(double poll) const
  {
    return (poll <= 0 || (deferral_allowed_ && poll < quantum_)) && poll <= lag_;
  }
  // The debt of a blocked rank, set by RankProgress when it applies a look
  // the rank would have taken (poll_after_block_defers) or takes it back.
  void set_debt_while_blocked(double debt) { debt_ = debt; }
  // Whether charge_cpu(seconds) would only add to the debt (no execution).
  bool defers(double seconds) const
  {
    double debt = seconds > 0 ? debt_ + seconds : debt_;
    return !(debt > 0 && (!deferral_allowed_ || debt >= quantum_));
  }

private:
  int rank_;
  simgrid::s4u::Host* host_;
  double quantum_;
  double lag_;
  double debt_ = 0;
  bool deferral_allowed_ = true;
};

}  // namespace progsim::sim
