// ideal: the always-progressing reference implementation of the MPI Forum
// discussions (mpi-progress file 004): every chunk runs the moment it is
// enabled, at no CPU cost, whatever its owner is doing.

#include "ModelParameters.hpp"
#include "progress/ProgressEngine.hpp"

namespace progsim::mpi {

namespace {

class IdealPolicy final : public ProgressPolicy {
public:
  const char* name() const override { return "ideal"; }
  void start(ProgressEngine&) override {}
  void dispatch(ProgressEngine& engine, RankProgress& owner, ProgressChunk chunk) override
  {
    engine.execute(owner, chunk, Executor::Immediate);
  }
  bool agents_busy() const override { return false; }
  void add_to_report(nlohmann::ordered_json&) const override {}
};

}  // namespace

std::unique_ptr<ProgressPolicy> make_ideal_policy(const ModelParameters&)
{
  return std::make_unique<IdealPolicy>();
}

}  // namespace progsim::mpi
