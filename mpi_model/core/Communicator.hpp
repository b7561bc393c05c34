// Communicators (MPI-4.1 §7): a group of world ranks and a context id that
// separates matching between communicators. Context ids are even; id + 1 is
// the communicator's collective context, used by the collectives' internal
// messages so that they never match user point-to-point traffic.
//
// Every process has its own object for each communicator it belongs to
// (MPI_COMM_WORLD and MPI_COMM_SELF included): the error handler, name,
// attributes and info hints are process-local state. The members' objects of
// one communicator share the context id and (by value) the group.
//
// Handles are per process: 0x44000000 | index, with WORLD = 1, SELF = 2 and
// created communicators at the lowest free index from 3.
//
// Context ids (kept per process as a bitmap of the ids in use) are chosen
// collectively when a communicator is created: the members reduce their
// bitmaps with MPI_BOR over the parent (an internal allreduce, see
// coll/ContextAgreement.cpp) and take the lowest even id none of them uses,
// as MPICH does. All participants compute the same id from the same reduced
// mask, so the choice is consistent and deterministic, and ids are reused
// after MPI_Comm_free. Disjoint communicators created by one MPI_Comm_split
// share one id, which is safe because no process belongs to two of them.
#pragma once

#include "core/Attributes.hpp"
#include "core/Group.hpp"
#include "core/Info.hpp"

#include <mpi.h>

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

// The collective calls a process made on a communicator, to detect
// mismatched collectives (MPI-4.1 §6.14: all members must call the same
// collectives in the same order).
struct CollectiveLog {
  static constexpr std::uint64_t kDepth = 16;
  std::uint64_t calls = 0;                // collectives started so far
  std::array<const char*, kDepth> names{};  // name of call #i at [i % kDepth]
  bool mismatch_reported = false;
};

struct Communicator {
  MPI_Comm handle = MPI_COMM_NULL;
  int context_id = 0;
  GroupPtr group;         // the local group
  GroupPtr remote_group;  // intercommunicators only (MPI-4.1 §7.6)
  int owner = -1;    // world rank of the process this object belongs to
  int my_rank = -1;  // the owner's rank in the (local) group
  std::string name;  // MPI_Comm_set_name; "" when never named

  // Process-local state.
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  AttributeSet attributes;
  Info hints;
  CollectiveLog log;
  bool freed = false;
  // Intercommunicators: the local group as an intracommunicator for the
  // internal messages among it (same context ids, tags of their own; see
  // coll/Intercomm.cpp). Made on first use.
  std::shared_ptr<Communicator> local_view;

  bool is_inter() const { return remote_group != nullptr; }
  // The processes point-to-point calls address: the remote group of an
  // intercommunicator, else the group. (MPI_Comm_size is group->size().)
  int size() const { return (remote_group ? *remote_group : *group).size(); }
  int world_rank(int peer) const { return (remote_group ? *remote_group : *group).world_rank(peer); }
  // Local rank (in the local group) of a world rank, or -1 when it is not a member.
  int local_rank(int world) const { return world == owner ? my_rank : group->local_rank(world); }
};

// The communicators of the run, per process.
class CommunicatorTable {
public:
  // Context ids 0 .. 2 * kContextSlots - 2 (even ids only).
  static constexpr int kContextSlots = 4096;
  static constexpr int kMaskWords = kContextSlots / 64;
  // Freed communicator objects kept alive (requests may still refer to them).
  static constexpr std::size_t kQuarantine = 16384;

  void reset(int world_size);
  // The communicator `handle` as seen by `world_rank`, or nullptr.
  const Communicator* find(MPI_Comm handle, int world_rank) const;
  Communicator* get(MPI_Comm handle, int world_rank);
  // The live communicator of `world_rank` with that context id, or nullptr.
  Communicator* find_by_context(int world_rank, int context_id);
  const Communicator& world() const { return *ranks_.front().slots[1]; }

  // Registers a new communicator of `world_rank` (context id, group, owner
  // and my_rank set): gives it a handle and marks its context id as used.
  Communicator& add(int world_rank, std::unique_ptr<Communicator> comm);
  // MPI_Comm_free: the handle becomes invalid and the context id free at
  // this process; the object stays alive for a while (kQuarantine).
  void remove(int world_rank, MPI_Comm handle);
  // Keeps an internal communicator object alive like a freed one (the
  // temporary view of MPI_Comm_create_group's agreement).
  const Communicator& keep(std::unique_ptr<Communicator> comm);

  // Bit i of word i / 64 set: context id 2 * i is in use at `world_rank`.
  const std::vector<std::uint64_t>& context_mask(int world_rank) const
  {
    return ranks_[static_cast<size_t>(world_rank)].context_mask;
  }
  std::size_t live(int world_rank) const;

private:
  struct PerRank {
    std::vector<std::unique_ptr<Communicator>> slots;  // by handle index; 0 unused
    std::vector<std::uint32_t> free;                   // free indices >= 3, kept sorted descending
    std::vector<std::uint64_t> context_mask;
    std::unordered_map<int, Communicator*> by_context;
  };
  void mark(PerRank& r, int context, bool used);
  void retire(std::unique_ptr<Communicator> comm);

  std::vector<PerRank> ranks_;
  std::deque<std::unique_ptr<Communicator>> quarantine_;
};

// Largest valid tag (the MPI_TAG_UB attribute; MPI-4.1 requires >= 32767).
constexpr int kTagUpperBound = 0x3fffffff;

// Context ids of the predefined communicators.
constexpr int kWorldContext = 0;
constexpr int kSelfContext = 2;

}  // namespace progsim::mpi
