// How much of a rank's nonblocking communication was hidden behind its
// computation, for the report's "overlap" (the `compare` column).
//
// For one nonblocking operation, from its start (post) to its completion:
// - its communication time is that interval minus the time it sat still
//   because one of the rank's progress chunks waited for an executor (weak
//   progress: the rank was computing, outside MPI, so nothing moved; MPI-4.1
//   §2.9) -- a chunk of the rank's own, or one of a peer for a message to or
//   from the rank --, i.e. the time its communication was actually going on;
// - the part of it hidden behind computation is the communication time the
//   rank spent outside MPI calls; the rest (in MPI, blocked or not: a wait,
//   the host's own protocol work in the starting call) is exposed.
// overlap = hidden / communication time: 1 when the operation ran entirely
// while the rank computed (the ideal policy's bound), 0 when it advanced only
// inside the wait (weak progress with nothing calling MPI meanwhile).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace progsim::mpi {

class OverlapMeter {
public:
  // The rank entered (in_mpi) or left an MPI call at `now` (its clock).
  void note_in_mpi(bool in_mpi, double now);
  // A progress chunk of the rank, or of its peer for one of its messages,
  // waited for its executor over [begin, end].
  void note_stalled(double begin, double end);
  // A nonblocking operation the program started at `post` with `call`
  // completed at `complete` (and its completion was seen by MPI_Wait/Test):
  // adds its communication and hidden time to the totals.
  void note_operation(double post, double complete, const char* call);

  std::uint64_t operations() const { return operations_; }
  double communication_time() const { return communication_; }
  double hidden_time() const { return hidden_; }

  // The first kKeptOperations operations one by one (the per-operation
  // overlap figure of compare --figures).
  struct Operation {
    const char* call;
    double post, complete, communication, hidden;
  };
  static constexpr std::size_t kKeptOperations = 1024;
  const std::vector<Operation>& kept_operations() const { return kept_; }

  // Intervals kept per kind; older ones are dropped in halves (an operation
  // that started before the oldest kept interval is measured on what is kept).
  static constexpr std::size_t kKeptIntervals = 1 << 12;

private:
  struct Interval {
    double begin, end;
  };
  static void add(std::vector<Interval>& list, double begin, double end);

  std::vector<Interval> in_mpi_;   // disjoint, in time order
  bool inside_ = false;            // in an MPI call since entered_
  double entered_ = 0;
  std::vector<Interval> stalled_;  // merged, in time order
  std::uint64_t operations_ = 0;
  double communication_ = 0;
  double hidden_ = 0;
  std::vector<Operation> kept_;
};

}  // namespace progsim::mpi
