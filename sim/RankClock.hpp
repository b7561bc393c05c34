// A rank's view of simulated time.
//
// Whenever the rank is about to give control back to the simulator (flush,
// sleep), the output it wrote meanwhile is collected (OutputCapture).
//
// Small CPU costs (the per-call overhead of MPI_Wtime, MPI_Comm_rank, ...)
// accumulate as local "debt" instead of a SimGrid execution each, and are
// executed on the rank's host before the rank next interacts with anything
// (flush) or overlap its next wait (begin_block/end_block). Debt stays
// below the quantum, and keeps loops like `while (MPI_Wtime() - t0 < 0.5);`
// fast.
#pragma once

#include <simgrid/s4u/Host.hpp>

namespace progsim::sim {

class RankClock {
public:
  RankClock(int rank, simgrid::s4u::Host* host, double quantum) : rank_(rank), host_(host), quantum_(quantum) {}

  // The rank's current simulated time, including its unflushed debt.
  double now() const;
  // Charges `seconds` of CPU on the rank's host (deferred below the quantum).
  void charge_cpu(double seconds);
  // Executes the pending debt on the host CPU (competes with other actors there).
  void flush();
  // The program sleeps: no CPU used, simulated time passes.
  void sleep(double seconds);
  // The rank is about to block (waiting for a message, a semaphore...). Its
  // pending debt is not executed but overlaps the wait: the CPU work was
  // done before blocking, so whatever wakes the rank is seen no earlier than
  // the end of that work. Saves an execution per blocking call.
  void begin_block();
  // The rank woke up: only the part of the debt the wait did not cover remains.
  void end_block();
  double pending() const { return debt_; }

private:
  int rank_;
  simgrid::s4u::Host* host_;
  double quantum_;
  double debt_ = 0;
  double blocked_at_ = 0;
};

}  // namespace progsim::sim
