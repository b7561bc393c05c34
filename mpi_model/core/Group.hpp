// MPI process groups (MPI-4.1 §7.2-7.3): an ordered set of world ranks.
// Group values are immutable and shared (communicators hold their group);
// MPI_Group handles are per process (GroupTable, in Process).
#pragma once

#include "core/HandleTable.hpp"

#include <mpi.h>

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

namespace progsim::mpi {

class Group {
public:
  explicit Group(std::vector<int> world_ranks);
  // 0, 1, ..., n-1: MPI_COMM_WORLD's group (no index needed).
  static std::shared_ptr<const Group> identity(int n);

  int size() const { return static_cast<int>(world_ranks_.size()); }
  int world_rank(int local) const { return world_ranks_[static_cast<size_t>(local)]; }
  // Rank in the group of a world rank, or -1 when it is not a member.
  int local_rank(int world) const;
  const std::vector<int>& world_ranks() const { return world_ranks_; }
  bool same_members(const Group& other) const;  // as sets
  bool operator==(const Group& other) const { return world_ranks_ == other.world_ranks_; }

  // The session whose process set it is (MPI_Group_from_session_pset, set
  // before the group is shared); MPI_SESSION_NULL for every other group.
  MPI_Session session = MPI_SESSION_NULL;

private:
  std::vector<int> world_ranks_;
  bool identity_ = false;
  std::vector<std::pair<int, int>> by_world_;  // (world, local), sorted; empty for identity
};

using GroupPtr = std::shared_ptr<const Group>;

// MPI_Group handles of one process: 0x48000000 | index, MPI_GROUP_EMPTY is
// index 1, created groups get the lowest free index from 2 (deterministic).
class GroupTable {
public:
  GroupTable();
  // nullptr for MPI_GROUP_NULL and unknown or freed handles.
  GroupPtr find(MPI_Group handle) const;
  // A handle for a group; MPI_GROUP_EMPTY when the group is empty.
  MPI_Group insert(GroupPtr group);
  // MPI_Group_free: false if the handle is not a freeable group.
  bool erase(MPI_Group handle);
  std::size_t live() const { return table_.live(); }
  std::vector<MPI_Group> live_handles() const;  // ascending

private:
  HandleTable<GroupPtr> table_;  // lowest free index first: deterministic reuse
};

// MPI_Group_compare / MPI_Comm_compare on groups: MPI_IDENT, MPI_SIMILAR or MPI_UNEQUAL.
int compare_groups(const Group& a, const Group& b);

}  // namespace progsim::mpi
