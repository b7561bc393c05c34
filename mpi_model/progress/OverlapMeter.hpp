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
//
// Exact for any run length: the meter keeps every interval an operation the
// program holds, or one it may still start, can be measured on. It knows the
// operations the program holds (hold/release: a start time per active
// request the program has a handle to, MPI-4.1 §3.7.1), and drops only
// intervals that end before the horizon = min(the earliest of those starts,
// the rank's last entry into MPI: any later start happens in that call or a
// later one). So memory follows what is still needed, not the run's length
// (lists of kTrimFrom intervals or fewer are left alone). A rank that holds
// one request for ever (an MPI_Irecv never matched) stops the trimming:
// kMaxIntervals per kind is the hard bound, at which the oldest half is
// dropped; an operation then measured on dropped intervals is counted in
// approximate_operations() (the report says so), never silently. Whether an
// operation lost an interval is checked at its measure (its start against
// the latest end dropped), not assumed.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace progsim::mpi {

class OverlapMeter {
public:
  // Intervals kept per kind at most (16 bytes each): 16 MiB per kind for a
  // rank that holds an operation across more than a million MPI calls.
  static constexpr std::uint32_t kMaxIntervals = std::uint32_t{1} << 20;
  // Below this many intervals a list is not trimmed.
  static constexpr std::size_t kTrimFrom = 16;

  // `max_intervals` (at least 2): the bound, smaller in unit tests.
  explicit OverlapMeter(std::uint32_t max_intervals = kMaxIntervals)
      : max_intervals_(max_intervals < 2 ? 2 : max_intervals)
  {
  }

  // The rank entered (in_mpi) or left an MPI call at `now` (its clock).
  void note_in_mpi(bool in_mpi, double now);
  // A progress chunk of the rank, or of its peer for one of its messages,
  // waited for its executor over [begin, end].
  void note_stalled(double begin, double end);
  // A nonblocking operation the program started at `post` with `call`
  // completed at `complete` (and its completion was seen by MPI_Wait/Test):
  // adds its communication and hidden time to the totals.
  void note_operation(double post, double complete, const char* call);

  // The program holds an active request started at `post` (a negative
  // `post`: not started yet). Returns the key to release it with: no later
  // than `post`, nor than the rank's last entry into an MPI call.
  double hold(double post);
  // The program released (completed, freed) the request held with `key`.
  void release(double key);
  // Active requests the program holds, as told by hold/release.
  std::uint64_t pending() const;

  std::uint64_t operations() const { return operations_; }
  double communication_time() const { return communication_; }
  double hidden_time() const { return hidden_; }
  // Operations that started before the end of a dropped interval (only the
  // bound kMaxIntervals drops such intervals): measured on what was left, so
  // their communication and hidden time are approximate.
  std::uint32_t approximate_operations() const { return approximate_; }

  // The first kKeptOperations operations one by one (the per-operation
  // overlap figure of compare --figures).
  struct Operation {
    const char* call;
    double post, complete, communication, hidden;
  };
  static constexpr std::size_t kKeptOperations = 1024;
  const std::vector<Operation>& kept_operations() const { return kept_; }

  // For tests: the intervals kept now, of each kind.
  std::size_t kept_in_mpi() const { return in_mpi_.size(); }
  std::size_t kept_stalled() const { return stalled_.size(); }

private:
  struct Interval {
    double begin, end;
  };
  // Requests held since `key`; entries whose count fell to 0 stay until
  // more than half are such (release() then compacts): O(log n) per hold
  // and release, the earliest key first.
  struct Held {
    double key;
    std::uint32_t count;
  };
  void add(std::vector<Interval>& list, double begin, double end);
  void trim(std::vector<Interval>& list);
  // No operation measured later starts before this: the earliest start
  // held, or the last entry into an MPI call (any later start happens in
  // it or in a later call).
  double horizon() const;

  std::vector<Interval> in_mpi_;   // disjoint, in time order
  bool inside_ = false;            // in an MPI call since entered_
  std::uint32_t held_empty_ = 0;   // entries of held_ with count 0
  double entered_ = 0;
  // Ends are non-decreasing (a chunk that waited ending before the last
  // interval's end merges into it), so intervals ending before a time are a
  // prefix.
  std::vector<Interval> stalled_;
  std::vector<Held> held_;         // by key
  // The latest end of a dropped interval: an operation that started before
  // it is measured on what was left (only the kMaxIntervals bound drops
  // such intervals; checked rather than assumed).
  double dropped_until_ = 0;
  std::uint32_t max_intervals_;
  std::uint32_t approximate_ = 0;
  std::uint64_t operations_ = 0;
  double communication_ = 0;
  double hidden_ = 0;
  std::vector<Operation> kept_;
};

}  // namespace progsim::mpi
