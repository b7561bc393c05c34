// The MPI call a rank is making, as the model's layers below the bindings
// see it (collectives, RMA epochs, context id agreements): which procedure
// (named in reports and deadlock explanations), which rank calls it, and how
// that rank waits for a request. A binding is one (bindings/Binding.hpp);
// the layers take a CallContext so that they never depend on the bindings.
#pragma once

#include "core/Request.hpp"

namespace progsim::sim {
class Rank;
}

namespace progsim::mpi {

class MpiModel;
class PointToPoint;
class RankProgress;

class CallContext {
public:
  // `call`: a string literal (kept by pointer). `rank`: the calling rank.
  CallContext(const char* call, sim::Rank* rank) : call_(call), rank_(rank) {}

  const char* call() const { return call_; }
  sim::Rank* rank() const { return rank_; }
  int world() const;  // the calling rank's world rank
  MpiModel& model() const;
  PointToPoint& p2p() const;
  RankProgress& progress() const;

  // Blocks (progressing) until the request has completed: the rank is part
  // of deadlock detection meanwhile, and a report names what it waits for.
  void wait(const RequestPtr& request) const;
  // Whether a request (or all parts of a composite one) completed; runs the
  // completion hook of a composite request once.
  static bool done(Request& request);

private:
  const char* call_;
  sim::Rank* rank_;
};

}  // namespace progsim::mpi
