// The progress state of one rank's MPI library: the chunks waiting for a
// host agent (the rank itself, or its progress thread), the rank's blocking
// waits, and the counters the report shows.
#pragma once

#include "progress/ProgressChunk.hpp"

#include <simgrid/s4u/Semaphore.hpp>

#include <cstdint>
#include <deque>
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
  std::uint64_t chunks_by_thread = 0;
  std::uint64_t chunks_by_nic = 0;
  std::uint64_t chunks_immediate = 0;
  std::uint64_t chunks_to_host_fallback = 0;  // offload: chunks the NIC could not take
  std::uint64_t nic_descriptors = 0;  // offload: collective messages the host wrote to the NIC up front
  double blocked_time = 0;         // simulated seconds spent blocked inside MPI
  double thread_cpu = 0;           // CPU seconds used by the progress thread
  std::uint64_t thread_polls = 0;
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
  std::deque<ProgressChunk>& host_queue() { return host_queue_; }
  const std::deque<ProgressChunk>& host_queue() const { return host_queue_; }
  ProgressCounters counters;

  // Blocks the calling rank inside an MPI procedure until done() holds,
  // running the rank's chunks meanwhile (MPI-4.1 §2.9: blocked procedures
  // must progress). `describe` says what it waits for, for deadlock
  // reports; it is called only if the rank blocks (building the text for
  // every call that completes at once cost more than the call).
  void wait_until(const std::function<bool()>& done, const std::function<std::string()>& describe);
  // One progress step of a test procedure or progressing call: runs the
  // chunks queued for the host (the rank executes them).
  void progress_point();
  // Something this rank may be waiting for happened.
  void wake();
  bool waiting() const { return waiting_; }
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
  std::deque<ProgressChunk> host_queue_;
  simgrid::s4u::SemaphorePtr wakeup_;
  bool waiting_ = false;
  bool ended_ = false;  // the rank returned (ProgressEngine::note_rank_end)
  double waiting_since_ = 0;
  std::uintptr_t call_site_ = 0;
};

}  // namespace progsim::mpi
