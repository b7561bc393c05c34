#include "coll/Schedule.hpp"

namespace progsim::mpi::coll {

Round& Schedule::message_round()
{
  if (closed_ || rounds_.empty() || !rounds_.back().after.empty()) {
    rounds_.emplace_back().messages.reserve(2);  // most rounds: one send and one receive
    closed_ = false;
  }
  return rounds_.back();
}

void Schedule::send(const Channel& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type)
{
  message_round().messages.push_back({true, c, peer, const_cast<void*>(buf), count, type});
}

void Schedule::recv(const Channel& c, int peer, void* buf, std::int64_t count, MPI_Datatype type)
{
  message_round().messages.push_back({false, c, peer, buf, count, type});
}

void Schedule::local(LocalStep step)
{
  if (rounds_.empty())
    rounds_.emplace_back();
  rounds_.back().after.push_back(std::move(step));
}

void Schedule::next_round()
{
  closed_ = true;
}

std::byte* Schedule::scratch(std::size_t bytes)
{
  return keep(std::vector<std::byte>(bytes == 0 ? 1 : bytes)).data();
}

}  // namespace progsim::mpi::coll
