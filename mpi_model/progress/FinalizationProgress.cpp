#include "progress/FinalizationProgress.hpp"

#include "MpiModel.hpp"
#include "p2p/PointToPoint.hpp"
#include "progress/RankProgress.hpp"

#include <string>

namespace progsim::mpi {

void run_remaining_activities(int rank, const char* call)
{
  PointToPoint& p2p = MpiModel::instance().p2p();
  if (!p2p.has_pending_activities(rank))
    return;
  MpiModel::instance().rank_progress(rank).wait_until(
      [&p2p, rank] { return !p2p.has_pending_activities(rank); },
      [&p2p, rank, call] {
        return std::string(call) + " (waiting for its pending decoupled activities: " + p2p.explain(rank) + ")";
      });
}

}  // namespace progsim::mpi
