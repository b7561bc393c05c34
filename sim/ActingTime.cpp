#include "sim/ActingTime.hpp"

#include "sim/CallScope.hpp"

#include <simgrid/s4u/Engine.hpp>

namespace progsim::sim {

double acting_time()
{
  Rank* rank = calling_rank();
  return rank ? rank->clock().now() : simgrid::s4u::Engine::get_clock();
}

void settle_before_effect_on(int target)
{
  Rank* rank = calling_rank();
  if (rank && rank->id() != target && rank->clock().pending() > 0)
    rank->clock().flush();
}

}  // namespace progsim::sim
