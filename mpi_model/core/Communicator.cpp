#include "core/Communicator.hpp"

#include <algorithm>
#include <functional>

namespace progsim::mpi {

namespace {
constexpr MPI_Comm kCommKind = 0x44000000;
constexpr std::uint32_t kIndexMask = 0x00ffffff;
constexpr std::uint32_t kFirstDynamic = 3;

std::uint32_t index_of(MPI_Comm handle)
{
  if ((handle & ~static_cast<MPI_Comm>(kIndexMask)) != kCommKind)
    return 0;
  return static_cast<std::uint32_t>(handle) & kIndexMask;
}
}  // namespace

void CommunicatorTable::reset(int world_size)
{
  ranks_.clear();
  quarantine_.clear();
  ranks_.resize(static_cast<size_t>(world_size));
  GroupPtr world_group = Group::identity(world_size);
  for (int r = 0; r < world_size; ++r) {
    PerRank& pr = ranks_[static_cast<size_t>(r)];
    pr.slots.resize(kFirstDynamic);

    auto world = std::make_unique<Communicator>();
    world->handle = MPI_COMM_WORLD;
    world->context_id = kWorldContext;
    world->group = world_group;
    world->owner = r;
    world->my_rank = r;
    world->name = "MPI_COMM_WORLD";
    auto self = std::make_unique<Communicator>();
    self->handle = MPI_COMM_SELF;
    self->context_id = kSelfContext;
    self->group = std::make_shared<const Group>(std::vector<int>{r});
    self->owner = r;
    self->my_rank = 0;
    self->name = "MPI_COMM_SELF";
    pr.by_context[kWorldContext] = world.get();
    pr.by_context[kSelfContext] = self.get();
    pr.slots[1] = std::move(world);
    pr.slots[2] = std::move(self);
  }
}

const Communicator* CommunicatorTable::find(MPI_Comm handle, int world_rank) const
{
  if (world_rank < 0 || world_rank >= static_cast<int>(ranks_.size()))
    return nullptr;
  const PerRank& pr = ranks_[static_cast<size_t>(world_rank)];
  std::uint32_t index = index_of(handle);
  if (index == 0 || index >= pr.slots.size())
    return nullptr;
  return pr.slots[index].get();
}

Communicator* CommunicatorTable::get(MPI_Comm handle, int world_rank)
{
  return const_cast<Communicator*>(find(handle, world_rank));
}

Communicator* CommunicatorTable::find_by_context(int world_rank, int context_id)
{
  if (world_rank < 0 || world_rank >= static_cast<int>(ranks_.size()))
    return nullptr;
  PerRank& pr = ranks_[static_cast<size_t>(world_rank)];
  auto it = pr.by_context.find(context_id);
  return it == pr.by_context.end() ? nullptr : it->second;
}

Communicator& CommunicatorTable::add(int world_rank, std::unique_ptr<Communicator> comm)
{
  PerRank& pr = ranks_[static_cast<size_t>(world_rank)];
  std::uint32_t index;
  if (!pr.free.empty()) {
    index = pr.free.back();  // the lowest free index
    pr.free.pop_back();
  } else {
    index = static_cast<std::uint32_t>(pr.slots.size());
    pr.slots.emplace_back();
  }
  comm->handle = kCommKind | static_cast<MPI_Comm>(index);
  pr.next_context = std::max(pr.next_context, (comm->context_id / 4 + 1) * 4);
  pr.by_context[comm->context_id] = comm.get();
  pr.slots[index] = std::move(comm);
  return *pr.slots[index];
}

void CommunicatorTable::remove(int world_rank, MPI_Comm handle)
{
  PerRank& pr = ranks_[static_cast<size_t>(world_rank)];
  std::uint32_t index = index_of(handle);
  if (index < kFirstDynamic || index >= pr.slots.size() || !pr.slots[index])
    return;
  std::unique_ptr<Communicator> comm = std::move(pr.slots[index]);
  auto it = pr.by_context.find(comm->context_id);
  if (it != pr.by_context.end() && it->second == comm.get())
    pr.by_context.erase(it);
  pr.free.insert(std::upper_bound(pr.free.begin(), pr.free.end(), index, std::greater<>()), index);
  while (pr.slots.size() > kFirstDynamic && !pr.slots.back()) {
    // Trailing free slots shrink the table instead of staying on the list.
    auto last = static_cast<std::uint32_t>(pr.slots.size() - 1);
    pr.free.erase(std::remove(pr.free.begin(), pr.free.end(), last), pr.free.end());
    pr.slots.pop_back();
  }
  comm->freed = true;
  comm->attributes = AttributeSet{};
  comm->hints = Info{};
  comm->local_view.reset();
  retire(std::move(comm));
}

void CommunicatorTable::retire(std::unique_ptr<Communicator> comm)
{
  quarantine_.push_back(std::move(comm));
  if (quarantine_.size() > kQuarantine)
    quarantine_.pop_front();
}

std::size_t CommunicatorTable::live(int world_rank) const
{
  const PerRank& pr = ranks_[static_cast<size_t>(world_rank)];
  return static_cast<std::size_t>(std::count_if(pr.slots.begin(), pr.slots.end(), [](const auto& c) { return !!c; }));
}

std::vector<const Communicator*> CommunicatorTable::live_communicators(int world_rank) const
{
  std::vector<const Communicator*> comms;
  for (const auto& c : ranks_[static_cast<size_t>(world_rank)].slots)
    if (c)
      comms.push_back(c.get());
  return comms;
}

int CommunicatorTable::idup_context(int parent_context, int parent_lowest_rank, int sequence, int members)
{
  auto key = std::make_tuple(parent_context, parent_lowest_rank, sequence);
  auto it = idups_.find(key);
  if (it == idups_.end()) {
    it = idups_.emplace(key, IdupEntry{next_idup_context_, members}).first;
    next_idup_context_ += 4;
  }
  int context = it->second.context;
  if (--it->second.waiting <= 0)
    idups_.erase(it);
  return context;
}

}  // namespace progsim::mpi
