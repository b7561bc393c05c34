// The longest waits of progress chunks for an executor, for the report of a
// run that completed late rather than deadlocked: "rank 0's
// rndv.on_cts_origin waited 10 s for rank 0 to enter MPI" is what weak
// progress costs (MPI-4.1 §2.9: a decoupled activity runs only inside MPI
// unless the implementation gives strong progress).
#pragma once

#include "progress/ProgressChunk.hpp"

#include <nlohmann/json.hpp>

#include <vector>

namespace progsim::mpi {

class ProgressDelays {
public:
  // Chunks that waited less are not worth naming.
  static constexpr double kNoteworthy = 1e-3;
  static constexpr std::size_t kKept = 5;

  // `chunk` ran at `run_at` by `executor`, called `label`.
  void note(const ProgressChunk& chunk, double run_at, Executor executor, const char* label);
  // The longest waits, longest first (ties: earlier chunk first).
  nlohmann::ordered_json to_json() const;

private:
  struct Delay {
    std::uint64_t chunk_id;
    std::string chunk;
    int owner;
    int peer;
    double enabled_at;
    double run_at;
    Executor executor;
    const char* label;
  };
  std::vector<Delay> longest_;
};

}  // namespace progsim::mpi
