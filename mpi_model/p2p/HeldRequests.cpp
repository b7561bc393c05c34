// The active requests the program holds, told to their owners' overlap
// meters (progress/OverlapMeter.hpp): an operation is measured, when the
// program sees it complete, on the intervals since its start, so the meter
// keeps every interval after the earliest start of the requests the program
// holds, and no others. A request is held from the call that returns its
// handle active (or MPI_Start, MPI-4.1 §3.9) to the call that retires it
// (MPI_Wait & co.: a persistent one becomes inactive) or frees it
// (MPI_Request_free, §3.7.3). Generalized requests are not measured (no
// communication of the library's, MPI-4.1 §13.2) and not held.

#include "p2p/PointToPoint.hpp"

#include <map>

namespace progsim::mpi {

void PointToPoint::held_by_user(Request& request)
{
  if (request.kind == RequestKind::Generalized || !request.active() || request.overlap_hold >= 0)
    return;
  request.overlap_hold = progress_.rank(request.owner).overlap.hold(request.post_time);
}

void PointToPoint::release_user_hold(Request& request)
{
  // Measured once per start: an inactive persistent request freed after
  // its last MPI_Wait is not held any more and still carries that start's
  // completion time (it was counted twice before).
  if (request.overlap_hold < 0)
    return;
  OverlapMeter& meter = progress_.rank(request.owner).overlap;
  if (request.complete_time >= 0)  // the program saw a nonblocking operation complete
    meter.note_operation(request.post_time, request.complete_time, request.call);
  meter.release(request.overlap_hold);
  request.overlap_hold = -1;
}

std::string PointToPoint::held_requests_mismatch(const std::vector<RequestPtr>& live) const
{
  std::map<int, std::uint64_t> held;  // by rank, the active requests of the table
  for (const RequestPtr& r : live)
    if (r->kind != RequestKind::Generalized && r->active())
      ++held[r->owner];
  std::string text;
  for (int rank = 0; rank < progress_.size(); ++rank) {
    auto it = held.find(rank);
    std::uint64_t table = it == held.end() ? 0 : it->second;
    std::uint64_t meter = progress_.rank(rank).overlap.pending();
    if (table != meter)
      text += "rank " + std::to_string(rank) + " holds " + std::to_string(table) +
              " active requests, its overlap meter counts " + std::to_string(meter) + "\n";
  }
  return text;
}

}  // namespace progsim::mpi
