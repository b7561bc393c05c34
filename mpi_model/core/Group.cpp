#include "core/Group.hpp"

#include "core/CreationSites.hpp"

#include <algorithm>

namespace progsim::mpi {

namespace {
constexpr HandleKind<MPI_Group> kGroup{0x48000000};
constexpr std::uint32_t kFirstIndex = 2;
}  // namespace

Group::Group(std::vector<int> world_ranks) : world_ranks_(std::move(world_ranks))
{
  identity_ = true;
  for (size_t i = 0; i < world_ranks_.size(); ++i)
    if (world_ranks_[i] != static_cast<int>(i)) {
      identity_ = false;
      break;
    }
  if (!identity_) {
    by_world_.reserve(world_ranks_.size());
    for (size_t i = 0; i < world_ranks_.size(); ++i)
      by_world_.emplace_back(world_ranks_[i], static_cast<int>(i));
    std::sort(by_world_.begin(), by_world_.end());
  }
}

std::shared_ptr<const Group> Group::identity(int n)
{
  std::vector<int> ranks(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i)
    ranks[static_cast<size_t>(i)] = i;
  return std::make_shared<const Group>(std::move(ranks));
}

int Group::local_rank(int world) const
{
  if (identity_)
    return world >= 0 && world < size() ? world : -1;
  auto it = std::lower_bound(by_world_.begin(), by_world_.end(), std::make_pair(world, -1));
  return it != by_world_.end() && it->first == world ? it->second : -1;
}

bool Group::same_members(const Group& other) const
{
  if (size() != other.size())
    return false;
  for (int w : world_ranks_)
    if (other.local_rank(w) < 0)
      return false;
  return true;
}

int compare_groups(const Group& a, const Group& b)
{
  if (a == b)
    return MPI_IDENT;
  return a.same_members(b) ? MPI_SIMILAR : MPI_UNEQUAL;
}

GroupTable::GroupTable() : table_(kFirstIndex) {}

GroupPtr GroupTable::find(MPI_Group handle) const
{
  if (handle == MPI_GROUP_EMPTY) {
    static const GroupPtr empty = std::make_shared<const Group>(std::vector<int>{});
    return empty;
  }
  std::uint32_t index = kGroup.index_or(handle, 0);
  return table_.holds(index) ? *table_.slot(index) : nullptr;
}

MPI_Group GroupTable::insert(GroupPtr group)
{
  if (group->size() == 0)
    return MPI_GROUP_EMPTY;
  MPI_Group handle = kGroup.handle(table_.insert(std::move(group)));
  note_created(static_cast<std::uint32_t>(handle));
  return handle;
}

std::vector<MPI_Group> GroupTable::live_handles() const
{
  return kGroup.handles(table_.live_indices());
}

bool GroupTable::erase(MPI_Group handle)
{
  if (handle == MPI_GROUP_EMPTY)
    return true;  // predefined: freeing it only resets the handle
  return table_.erase(kGroup.index_or(handle, 0));
}

}  // namespace progsim::mpi
