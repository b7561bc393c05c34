// Communicators as the point-to-point engine needs them: a group of world
// ranks and a context id that separates matching between communicators
// (MPI-4.1 §7.1). The full chapter (split, dup, groups, topologies,
// intercommunicators) builds on this.
#pragma once

#include <mpi.h>

#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi {

struct Communicator {
  MPI_Comm handle = MPI_COMM_NULL;
  int context_id = 0;
  std::vector<int> world_ranks;  // local rank -> world rank
  std::string name;

  int size() const { return static_cast<int>(world_ranks.size()); }
  int world_rank(int local) const { return world_ranks[static_cast<size_t>(local)]; }
  // Local rank of a world rank, or -1 when it is not a member.
  int local_rank(int world) const;
};

// The communicators of the run. MPI_COMM_WORLD is one object shared by all
// ranks; MPI_COMM_SELF has one object per rank.
class CommunicatorTable {
public:
  void reset(int world_size);
  // The communicator `handle` as seen by `world_rank`, or nullptr.
  const Communicator* find(MPI_Comm handle, int world_rank) const;
  const Communicator& world() const { return *world_; }

private:
  std::unique_ptr<Communicator> world_;
  std::vector<std::unique_ptr<Communicator>> self_;  // per world rank
};

// Largest valid tag (the MPI_TAG_UB attribute; MPI-4.1 requires >= 32767).
constexpr int kTagUpperBound = 0x3fffffff;

// Context ids of the predefined communicators; collectives use id+1 so that
// their internal messages never match user point-to-point traffic.
constexpr int kWorldContext = 0;
constexpr int kSelfContext = 2;

}  // namespace progsim::mpi
