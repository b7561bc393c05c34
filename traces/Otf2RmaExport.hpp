// The one-sided records of `progsim run --otf2` (Otf2Export writes the
// calls' Enter/Leave and hands their events here), as Score-P's MPI adapter
// writes them: window creation and destruction (RmaWinCreate/RmaWinDestroy
// inside RmaCollectiveBegin/End), each operation (RmaPut, RmaGet, RmaAtomic)
// with a matching id, its completion (RmaOpCompleteBlocking at the
// synchronization that completes it, RmaOpCompleteNonBlocking at the
// completion of a request-based operation's request), fences
// (RmaCollectiveBegin/End) and passive-target locks (RmaRequestLock,
// RmaAcquireLock, RmaReleaseLock). Not written: the PSCW synchronizations'
// RmaGroupSync (their calls have Enter/Leave only, MPI_Win_complete
// completes the operations), MPI_Win_lock_all's locks.
#pragma once

#include "traces/Otf2Writer.hpp"

#include <nlohmann/json.hpp>

#include <map>
#include <utility>
#include <vector>

namespace progsim::traces {

class Otf2RmaExport {
public:
  Otf2RmaExport(Otf2Writer& writer, int nranks);

  // The rank's one-sided call `event` (entered at `entered`) returned
  // without an error at `left`; `comm`: its communicator (window creation).
  // False when `event` is not a one-sided call.
  bool returned(int rank, OTF2_TimeStamp entered, OTF2_TimeStamp left, const nlohmann::ordered_json& event,
                OTF2_CommRef comm);
  // A request completed at `t`: true when it was a request-based operation's.
  bool completed(int rank, OTF2_TimeStamp t, int request);

private:
  struct Operation {
    int target;
    std::uint64_t id;  // matching id, per rank
  };
  struct Window {
    OTF2_RmaWinRef ref = 0;
    std::vector<Operation> pending;  // not completed yet (not request-based)
    std::map<int, std::uint64_t> locks;  // target -> lock id
  };
  struct RankState {
    std::map<int, Window> windows;  // by the rank's trace id
    std::map<OTF2_CommRef, int> created;  // windows created over each communicator
    std::map<int, std::pair<OTF2_RmaWinRef, std::uint64_t>> requests;  // request-based operations
    std::uint64_t next_operation = 0;
    std::uint64_t next_lock = 0;
  };

  void operation(int rank, OTF2_TimeStamp t, const nlohmann::ordered_json& event, Window& window);
  // Completes the window's pending operations (to `target` only, unless -1).
  void complete(int rank, OTF2_TimeStamp t, Window& window, int target);

  Otf2Writer& writer_;
  std::vector<RankState> ranks_;
};

}  // namespace progsim::traces
