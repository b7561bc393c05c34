// One more observer of rank state changes (beside the timeline), set by the
// MPI model: its overlap measure needs the rank's time inside MPI calls.
// sim does not know the model, so the model registers itself here.
#pragma once

#include <functional>

namespace progsim::sim {

class Rank;

// Called by Rank::set_state after each change; an empty function removes it.
void set_rank_state_listener(std::function<void(const Rank&)> listener);

}  // namespace progsim::sim
