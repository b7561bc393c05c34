#include "core/Communicator.hpp"

#include <algorithm>

namespace progsim::mpi {

int Communicator::local_rank(int world) const
{
  auto it = std::find(world_ranks.begin(), world_ranks.end(), world);
  return it == world_ranks.end() ? -1 : static_cast<int>(it - world_ranks.begin());
}

void CommunicatorTable::reset(int world_size)
{
  world_ = std::make_unique<Communicator>();
  world_->handle = MPI_COMM_WORLD;
  world_->context_id = kWorldContext;
  world_->name = "MPI_COMM_WORLD";
  for (int r = 0; r < world_size; ++r)
    world_->world_ranks.push_back(r);
  self_.clear();
  for (int r = 0; r < world_size; ++r) {
    auto self = std::make_unique<Communicator>();
    self->handle = MPI_COMM_SELF;
    self->context_id = kSelfContext;
    self->name = "MPI_COMM_SELF";
    self->world_ranks = {r};
    self_.push_back(std::move(self));
  }
}

const Communicator* CommunicatorTable::find(MPI_Comm handle, int world_rank) const
{
  if (handle == MPI_COMM_WORLD)
    return world_.get();
  if (handle == MPI_COMM_SELF)
    return self_[static_cast<size_t>(world_rank)].get();
  return nullptr;
}

}  // namespace progsim::mpi
