#include "sim/Rank.hpp"

#include "sim/Interruption.hpp"
#include "sim/RankStateListener.hpp"
#include "sim/timeline/Timeline.hpp"

namespace progsim::sim {

namespace {

std::function<void(const Rank&)>& state_listener()
{
  static std::function<void(const Rank&)> listener;
  return listener;
}

}  // namespace

void set_rank_state_listener(std::function<void(const Rank&)> listener)
{
  state_listener() = std::move(listener);
}

void Rank::set_state(RankState state)
{
  if (frozen_)
    return;
  state_ = state;
  if (Timeline* timeline = Timeline::active())
    timeline->rank_state(*this);
  if (const auto& listener = state_listener())
    listener(*this);
  // Entering MPI, blocking and going to sleep are the points where a run
  // that progsim was asked to stop (SIGINT, SIGTERM) can end cleanly.
  if (state == RankState::InMpi || state == RankState::Blocked || state == RankState::Sleeping)
    Interruption::safe_point();
}

}  // namespace progsim::sim
