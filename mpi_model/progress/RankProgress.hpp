// The progress state of one rank's MPI library: the chunks waiting for a
// host agent (the rank itself, or its progress thread), the rank's blocking
// waits, and the counters the report shows.
#pragma once

#include "progress/ChunkQueue.hpp"
#include "progress/OverlapMeter.hpp"
#include "progress/ProgressChunk.hpp"

#include <simgrid/s4u/Semaphore.hpp>

#include <cstdint>
#include <functional>
#include <string>

namespace progsim::sim {
class Rank;
}

namespace progsim::mpi {

class ProgressEngine;

struct ProgressCounters {
  std::uint64_t tests = 0;         // test procedure calls (MPI_Test*, MPI_Iprobe, ...)
  std::uint64_t false_tests = 0;   // ... that returned false
  std::uint64_t chunks_by_rank = 0;
  std::uint64_t chunks_by_agent = 0;  // by the policy's agent (its own counters are its own)
  double blocked_time = 0;         // simulated seconds spent blocked inside MPI
};

class RankProgress {
public:
  RankProgress(ProgressEngine& engine, sim::Rank& rank);

  int rank() const;
  sim::Rank& sim_rank() { return rank_; }
  const sim::Rank& sim_rank() const { return rank_; }
  // The chunks waiting for a host agent, in the order they were enabled.
  // Several agents take from it (the rank inside MPI, its progress thread):
  // a chunk leaves the queue only when its action runs at once
  // (ProgressEngine::execute), never before a cost that may yield, so that
  // the chunks of one rank take effect in the order they were enabled
  // whoever runs them (matching order is message order, MPI-4.1 §3.5).
  ChunkQueue& host_queue() { return host_queue_; }
  const ChunkQueue& host_queue() const { return host_queue_; }
  ProgressCounters counters;
  // Blocked and stalled intervals, and the overlap of its nonblocking operations.
  OverlapMeter overlap;

  // Blocks the calling rank inside an MPI procedure until done() holds,
  // running the rank's chunks meanwhile (MPI-4.1 §2.9: blocked procedures
  // must progress). `describe` says what it waits for, for deadlock
  // reports; it is called only if the rank blocks (building the text for
  // every call that completes at once cost more than the call).
  //
  // `on` says what done() depends on. WaitOn::Requests: only the completion
  // of requests the program holds (whole collectives included), which wake
  // the rank through wake(); what wake_unless_selective reports cannot make
  // done() hold then.
  enum class WaitOn { Anything, Requests };
  void wait_until(const std::function<bool()>& done, const std::function<std::string()>& describe,
                  WaitOn on = WaitOn::Anything);
  // One progress step of a test procedure or progressing call: runs the
  // chunks queued for the host (the rank executes them).
  void progress_point();
  // Something this rank may be waiting for happened.
  void wake();
  // Something happened that only a wait on anything can be waiting for: a
  // collective's internal message completed (its schedule reacts through
  // its completion listener), a message arrived unexpected (a probe may
  // wait for it). A rank in a WaitOn::Requests wait would wake,
  // poll, find nothing and block again: when that look can be applied from
  // here (a policy that allows it, SimGrid's maestro, nothing it would run or
  // execute, no timeline to show it), its effect on the rank's state is
  // applied without waking it (apply_look); otherwise, and always with
  // PROGSIM_WAKE_EVERY_COMPLETION set, this is wake(). Same simulated times,
  // one context switch and simcall fewer per such event
  // (docs/design/progress.md).
  void wake_unless_selective();

  // A test procedure (MPI_Test*, MPI_Iprobe, MPI_Win_test...) found nothing:
  // returns whether the rank is livelocked, so that the call must be held
  // (hold_test) and then test again. It is when the rank made livelock-tests such
  // calls in a row with no other MPI call and no clock read between them
  // (a loop with a time-out reads a clock), nothing is queued for it, and
  // ProgressEngine::nothing_can_arrive: then the next test would find nothing
  // again, forever.
  bool test_found_nothing();
  // Holds the rank in its test call until something happens for it (wake()):
  // `block(done)` waits, in the model part that can say what for, until
  // done() holds. Meanwhile the rank counts as waiting, so the deadlock check
  // sees a livelock as part of the deadlock.
  void hold_test(const std::function<void(const std::function<bool()>& done)>& block);
  // Whether the rank is held in a test call, since when it loops (the first
  // test of the series), and how many tests it made in a row.
  bool held_in_test() const { return held_; }
  double test_loop_since() const { return loop_since_; }
  std::uint64_t tests_in_a_row() const { return idle_tests_; }
  // Loops on test calls that find nothing and made no other call since its
  // last one (it may be in user code between two of them).
  bool spinning() const;
  bool waiting() const { return waiting_; }
  // Inside wait_until: a blocking MPI procedure, which must progress
  // (MPI-4.1 §2.9), whether it is blocked or running its chunks.
  bool in_wait() const { return in_wait_; }
  const std::string& waiting_for() const;
  double waiting_since() const { return waiting_since_; }
  // Return address of the program's MPI call that is waiting (0: unknown),
  // for "file:line" in deadlock explanations.
  std::uintptr_t call_site() const { return call_site_; }
  // Seconds blocked in MPI up to `now`, counting a wait still going on (a
  // run that ended in a deadlock).
  double blocked_time(double now) const;

private:
  friend class ProgressEngine;
  void set_waiting(bool waiting);

  ProgressEngine& engine_;
  sim::Rank& rank_;
  ChunkQueue host_queue_;
  simgrid::s4u::SemaphorePtr wakeup_;
  bool waiting_ = false;
  bool in_wait_ = false;
  // The current wait's WaitOn, and whether the rank was in an MPI call
  // (InMpi or Blocked) when it entered it: a look then changes no state
  // another part of the model sees (the overlap meter counts both as in MPI).
  WaitOn wait_on_ = WaitOn::Anything;
  bool waits_in_mpi_ = false;
  // wake_unless_selective: applies the look the rank would take if woken now;
  // false when it cannot be applied exactly (then the rank is woken).
  bool apply_look();
  // The look of a rank released at blocked_at_ (it blocked ahead of
  // SimGrid's clock, wake()): taken then, or the rank released if a wake()
  // came meanwhile.
  void take_deferred_look();
  // Sets the state the rank has after a look (blocked again at `clock`, with
  // `debt`), remembering the state it had when released at this instant
  // (look_applied_at_): a wake() at that same instant finds the rank
  // released and not yet run, so it takes the look back and releases it.
  void set_looked(double clock, double debt);
  double look_applied_at_ = -1;  // SimGrid time; -1: none since the rank blocked
  double blocked_at_before_look_ = 0;
  double debt_before_look_ = 0;
  double woken_at_by_look_ = 0;   // woken_at_ as the look's wake-up set it
  bool look_deferred_ = false;    // waiting for take_deferred_look
  bool woken_during_look_ = false;  // a wake() came meanwhile
  bool ended_ = false;  // the rank returned (ProgressEngine::note_rank_end)
  // The current series of test calls that found nothing (false_test).
  void end_test_loop();
  std::uint64_t livelock_limit() const;  // livelock-tests, 0: never held
  std::uint64_t idle_tests_ = 0;
  std::uint64_t calls_at_false_test_ = 0;        // Rank::mpi_calls() at the last one
  std::uint64_t clock_reads_at_false_test_ = 0;  // Rank::clock_reads then
  double loop_since_ = 0;
  bool held_ = false;
  std::uint64_t wakes_ = 0;  // wake() calls, waited or not
  double blocked_at_ = 0;    // the rank's clock when it last blocked
  double woken_at_ = 0;      // when what woke it happened
  double waiting_since_ = 0;
  std::uintptr_t call_site_ = 0;
};

}  // namespace progsim::mpi
