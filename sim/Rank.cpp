#include "sim/Rank.hpp"

#include "sim/Interruption.hpp"
#include "sim/timeline/Timeline.hpp"

namespace progsim::sim {

void Rank::set_state(RankState state)
{
  if (frozen_)
    return;
  state_ = state;
  if (Timeline* timeline = Timeline::active())
    timeline->rank_state(*this);
  // Entering MPI, blocking and going to sleep are the points where a run
  // that progsim was asked to stop (SIGINT, SIGTERM) can end cleanly.
  if (state == RankState::InMpi || state == RankState::Blocked || state == RankState::Sleeping)
    Interruption::safe_point();
}

}  // namespace progsim::sim
