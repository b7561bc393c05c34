// A rank's view of simulated time.
//
// Whenever the rank is about to give control back to the simulator (flush,
// block), the output it wrote meanwhile is collected (OutputCapture).
//
// Small CPU costs (the per-call cost of MPI_Wtime, MPI_Comm_rank, ...)
// accumulate as local "debt" instead of a SimGrid execution each, which
// keeps loops like `while (MPI_Wtime() - t0 < 0.5);` fast. Debt is only
// allowed while nobody can tell: in user code and in local MPI queries. An
// MPI call that interacts with anything outside the rank (sends, matches,
// progresses, synchronizes) first executes the debt and then executes each
// of its own costs at once (CallScope), so that nothing another rank or the
// network observes happens before the issuing rank's clock. The debt is also
// executed when it reaches the quantum.
#pragma once

#include <simgrid/s4u/Host.hpp>

namespace progsim::sim {

class RankClock {
public:
  RankClock(int rank, simgrid::s4u::Host* host, double quantum) : rank_(rank), host_(host), quantum_(quantum) {}

  // The rank's current simulated time, including its unexecuted debt.
  double now() const;
  // Charges `seconds` of CPU on the rank's host: deferred as debt below the
  // quantum where deferral is allowed, executed at once otherwise.
  void charge_cpu(double seconds);
  // Executes the pending debt on the host CPU (competes with other actors there).
  void flush();
  // Whether costs may be deferred from now on; returns the previous setting.
  // The pending debt stays until the next charge or flush.
  bool allow_deferral(bool allowed);
  // The program sleeps: no CPU used, simulated time passes.
  void sleep(double seconds);
  // The rank is about to block (waiting for a message, a semaphore...):
  // forwards its output, which must precede whatever wakes it.
  void begin_block();
  double pending() const { return debt_; }
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
  double debt_ = 0;
  bool deferral_allowed_ = true;
};

}  // namespace progsim::sim
