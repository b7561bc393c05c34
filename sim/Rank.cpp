#include "sim/Rank.hpp"

#include "sim/timeline/Timeline.hpp"

namespace progsim::sim {

void Rank::set_state(RankState state)
{
  state_ = state;
  if (Timeline* timeline = Timeline::active())
    timeline->rank_state(*this);
}

}  // namespace progsim::sim
