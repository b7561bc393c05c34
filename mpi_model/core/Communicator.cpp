#include "core/Communicator.hpp"

#include "core/CreationSites.hpp"

#include <algorithm>
#include <functional>

namespace progsim::mpi {

namespace {
constexpr HandleKind<MPI_Comm> kComm{0x44000000};

std::uint32_t index_of(MPI_Comm handle)
{
  return kComm.index_or(handle, 0);
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
    *pr.slots.slot(1) = std::move(world);
    *pr.slots.slot(2) = std::move(self);
  }
}

const Communicator* CommunicatorTable::find(MPI_Comm handle, int world_rank) const
{
  if (world_rank < 0 || world_rank >= static_cast<int>(ranks_.size()))
    return nullptr;
  const PerRank& pr = ranks_[static_cast<size_t>(world_rank)];
  std::uint32_t index = index_of(handle);
  const std::unique_ptr<Communicator>* slot = pr.slots.slot(index);
  return slot ? slot->get() : nullptr;
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
  std::uint32_t index = pr.slots.insert(std::move(comm));  // the lowest free index
  Communicator& c = **pr.slots.slot(index);
  c.handle = kComm.handle(index);
  note_created(static_cast<std::uint32_t>(c.handle));
  pr.next_context = std::max(pr.next_context, (c.context_id / 4 + 1) * 4);
  pr.by_context[c.context_id] = &c;
  return c;
}

void CommunicatorTable::remove(int world_rank, MPI_Comm handle)
{
  PerRank& pr = ranks_[static_cast<size_t>(world_rank)];
  std::uint32_t index = index_of(handle);
  if (!pr.slots.holds(index))
    return;
  std::unique_ptr<Communicator> comm = pr.slots.take(index);
  auto it = pr.by_context.find(comm->context_id);
  if (it != pr.by_context.end() && it->second == comm.get())
    pr.by_context.erase(it);
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
  const auto& slots = pr.slots.slots();
  return static_cast<std::size_t>(std::count_if(slots.begin(), slots.end(), [](const auto& c) { return !!c; }));
}

std::vector<const Communicator*> CommunicatorTable::live_communicators(int world_rank) const
{
  std::vector<const Communicator*> comms;
  for (const auto& c : ranks_[static_cast<size_t>(world_rank)].slots.slots())
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
