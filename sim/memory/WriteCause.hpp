// Who made a write to watched memory, for traces (issue 19, docs/traces.md,
// "Memory waits"): a rank and the index of its trace event that made it
// (its `store` event, or the event of the RMA operation whose data landed).
// Kept apart from MemoryWatch so that an RMA operation can carry one.
#pragma once

namespace progsim::sim::memory {

struct WriteCause {
  int rank = -1;         // -1: not known (a receive into watched memory, a watch removed, no trace)
  long long event = -1;  // 0-based index among the rank's events in its trace
  bool known() const { return rank >= 0 && event >= 0; }
};

}  // namespace progsim::sim::memory
