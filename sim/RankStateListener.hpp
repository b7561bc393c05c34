// One more observer of rank state changes (beside the timeline), set by the
// MPI model: its overlap measure needs the rank's time inside MPI calls.
// sim does not know the model, so the model registers itself here.
#pragma once

namespace progsim::sim {

class Rank;

// Called by Rank::set_state after each change, with `context` and the
// rank's time of the change; nullptr removes it. A plain function pointer:
// every MPI call changes the state twice, and local queries (millions in
// some programs) pay for each.
using RankStateListener = void (*)(void* context, const Rank& rank, double now);
void set_rank_state_listener(RankStateListener listener, void* context);

}  // namespace progsim::sim
