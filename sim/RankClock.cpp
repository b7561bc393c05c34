#include "sim/RankClock.hpp"

#include "sim/HostExecution.hpp"
#include "sim/OutputCapture.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

namespace sg4 = simgrid::s4u;

namespace progsim::sim {

bool RankClock::allow_deferral(bool allowed)
{
  bool previous = deferral_allowed_;
  deferral_allowed_ = allowed;
  return previous;
}

void RankClock::flush()
{
  OutputCapture::yield_point(rank_);
  if (debt_ <= 0)
    return;
  double flops = debt_ * host_->get_speed();
  debt_ = 0;
  execute_on_host(flops);  // this_actor::execute in two simcalls, not five
}

double RankClock::begin_block()
{
  OutputCapture::yield_point(rank_);
  return now();
}

bool RankClock::end_block(double clock_at_block)
{
  double now = sg4::Engine::get_clock();
  debt_ = std::max(0.0, clock_at_block - now);
  return now >= clock_at_block;
}

void RankClock::sleep(double seconds)
{
  flush();
  if (seconds > 0)
    sg4::this_actor::sleep_for(seconds);
}

}  // namespace progsim::sim
