// When whatever runs now acts, in simulated time (causality,
// docs/design/time.md). A rank acts at its own clock: SimGrid's clock plus
// its deferred CPU debt (RankClock). The maestro (kernel timers, network
// arrivals) and agent actors (progress threads) act at SimGrid's clock.
#pragma once

namespace progsim::sim {

// The simulated time of an effect made now: what other ranks can observe of
// it is stamped with this time (a packet's departure, a request's post time).
double acting_time();

// Before an effect on rank `target` that cannot be stamped (waking it,
// enabling a progress chunk for it), the calling rank, if it is another one,
// executes its debt: the effect then happens at the caller's own clock.
void settle_before_effect_on(int target);

}  // namespace progsim::sim
