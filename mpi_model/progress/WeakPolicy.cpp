// weak (call-driven) progress, MPI-4.1 §2.9: a rank's chunks run only while
// that rank is inside an MPI procedure that must progress (blocked calls,
// repeated test calls, finalization; every call with
// --cfg weak-progress-every-call=yes). Between MPI calls nothing advances.

#include "progress/PolicyDescription.hpp"
#include "progress/ProgressEngine.hpp"

namespace progsim::mpi {

namespace {

class WeakPolicy final : public ProgressPolicy {
public:
  const char* name() const override { return "weak"; }
  void start(ProgressEngine&) override {}
  void dispatch(ProgressEngine&, RankProgress& owner, ProgressChunk chunk) override
  {
    owner.host_queue().push_back(std::move(chunk));
    owner.wake();
  }
  bool agents_busy() const override { return false; }
};

}  // namespace

const PolicyDescription& weak_policy()
{
  static const PolicyDescription description{
      "weak",
      "call-driven: a rank's progress chunks run only while it is inside an MPI procedure that must progress "
      "(blocked calls, repeated tests, finalization)",
      std::nullopt,
      {},
      no_parameters<WeakPolicy>};
  return description;
}

}  // namespace progsim::mpi
