#include "core/CallContext.hpp"

#include "MpiModel.hpp"
#include "p2p/PointToPoint.hpp"
#include "progress/RankProgress.hpp"
#include "sim/Rank.hpp"

namespace progsim::mpi {

int CallContext::world() const
{
  return rank_->id();
}

MpiModel& CallContext::model() const
{
  return MpiModel::instance();
}

PointToPoint& CallContext::p2p() const
{
  return model().p2p();
}

RankProgress& CallContext::progress() const
{
  return model().rank_progress(world());
}

bool CallContext::done(Request& request)
{
  if (request.cancel_pending)  // MPI_Cancel of a send: its answer decides the status (p2p/SendCancel.cpp)
    return false;
  if (request.complete())
    return true;
  if (request.rare().parts.empty())
    return false;
  for (auto& part : request.rare().parts)
    if (!part->complete())
      return false;
  const Request* recv = nullptr;
  for (auto& part : request.rare().parts)
    if (part->kind == RequestKind::Recv)
      recv = part.get();
  if (recv) {
    request.status_source = recv->status_source;
    request.status_tag = recv->status_tag;
    request.status_bytes = recv->status_bytes;
    request.status_error = recv->status_error;
  }
  request.state = RequestState::Complete;
  return true;
}

void CallContext::wait(const RequestPtr& request) const
{
  if (done(*request))
    return;
  p2p().set_waited(world(), {request});
  progress().wait_until([&request] { return done(*request); }, [&request] { return request->describe(); },
                        RankProgress::WaitOn::Requests);
  p2p().set_waited(world(), {});
}

}  // namespace progsim::mpi
