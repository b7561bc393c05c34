#include "progress/FinalizationProgress.hpp"

#include "MpiModel.hpp"
#include "p2p/PointToPoint.hpp"
#include "progress/RankProgress.hpp"

#include <string>

namespace progsim::mpi {

void run_remaining_activities(int rank, const char* call, PendingCancellations cancellations)
{
  PointToPoint& p2p = MpiModel::instance().p2p();
  bool wait_for_cancellations = cancellations == PendingCancellations::WaitFor;
  // Registered while it waits, also when the wait unwinds (a killed rank).
  struct CancellationWait {
    PointToPoint& p2p;
    int rank;
    bool on;
    ~CancellationWait()
    {
      if (on)
        p2p.set_waiting_for_cancellations(rank, false);
    }
  } registered{p2p, rank, wait_for_cancellations};
  if (wait_for_cancellations)
    p2p.set_waiting_for_cancellations(rank, true);
  MpiModel::instance().rank_progress(rank).wait_until(
      [&p2p, rank, wait_for_cancellations] {
        return !p2p.has_pending_activities(rank) && !(wait_for_cancellations && p2p.may_be_cancelled_to(rank));
      },
      [&p2p, rank, call, wait_for_cancellations] {
        std::string text = std::string(call) + " (waiting for its pending decoupled activities: " + p2p.explain(rank);
        if (wait_for_cancellations)
          for (const RequestPtr& send : p2p.cancellable_sends_to(rank))
            text += "; rank " + std::to_string(send->owner) + " may still cancel its " + send->describe();
        return text + ")";
      });
}

}  // namespace progsim::mpi
