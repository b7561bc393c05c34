// offload: the NIC runs matching and the rendezvous / acknowledgement steps
// itself (Portals- or BXI-like offload), one step at a time with
// nic-step-latency each, without the host CPU. Its matching table holds
// nic-match-entries posted receives; when a rank has more, matching falls
// back to the host (weak progress). Unexpected messages are matched by the
// host when the receive is posted, as always.

#include "ModelParameters.hpp"
#include "progress/ProgressEngine.hpp"
#include "sim/Rank.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <deque>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

namespace {

class OffloadPolicy final : public ProgressPolicy {
public:
  explicit OffloadPolicy(const ModelParameters& p) : p_(p) {}

  const char* name() const override { return "offload"; }

  void start(ProgressEngine& engine) override
  {
    for (int r = 0; r < engine.size(); ++r) {
      nics_.push_back(std::make_unique<Nic>());
      Nic* nic = nics_.back().get();
      nic->doorbell = sg4::Semaphore::create(0);
      RankProgress* owner = &engine.rank(r);
      sg4::ActorPtr actor = sg4::Actor::create("nic-" + std::to_string(r), owner->sim_rank().host(),
                                               [this, &engine, nic, owner] { run(engine, *nic, *owner); });
      actor->daemonize();
    }
  }

  void dispatch(ProgressEngine& engine, RankProgress& owner, ProgressChunk chunk) override
  {
    bool matching = chunk.step == ChunkStep::EagerOnMessageTarget || chunk.step == ChunkStep::RtsOnRtsTarget;
    if (matching && engine.posted_receives(owner.rank()) > static_cast<std::size_t>(p_.nic_match_entries)) {
      ++owner.counters.chunks_to_host_fallback;
      owner.host_queue().push_back(std::move(chunk));
      owner.wake();
      return;
    }
    Nic& nic = *nics_[static_cast<size_t>(owner.rank())];
    nic.busy = true;
    if (engine.in_arrival() && !nic.working && nic.queue.empty()) {
      // The packet's arrival runs the step itself: same time, same order,
      // without waking the NIC's actor (most of a message's host cost).
      step(engine, nic, owner, chunk);
      nic.busy = !nic.queue.empty();
      ring(nic);
      return;
    }
    nic.queue.push_back(std::move(chunk));
    ring(nic);
  }

  bool agents_busy() const override
  {
    for (auto& n : nics_)
      if (n->busy)
        return true;
    return false;
  }

  void add_to_report(nlohmann::ordered_json& report) const override
  {
    report["nic"] = {{"step_latency", p_.nic_step_latency}, {"match_entries", p_.nic_match_entries}};
  }

private:
  struct Nic {
    std::deque<ProgressChunk> queue;
    sg4::SemaphorePtr doorbell;
    bool sleeping = false;
    bool busy = false;     // has steps queued or in hand (deadlock detection)
    bool working = false;  // a step is in hand: the NIC runs one at a time
  };

  // One NIC step, in the calling actor.
  void step(ProgressEngine& engine, Nic& nic, RankProgress& owner, ProgressChunk& chunk) const
  {
    nic.working = true;
    sg4::this_actor::sleep_for(p_.nic_step_latency);
    engine.execute(owner, chunk, Executor::Nic);
    nic.working = false;
  }

  static void ring(Nic& nic)
  {
    if (nic.sleeping && !nic.queue.empty()) {
      nic.sleeping = false;
      nic.doorbell->release();
    }
  }

  void run(ProgressEngine& engine, Nic& nic, RankProgress& owner)
  {
    for (;;) {
      if (nic.queue.empty() || nic.working) {
        nic.busy = !nic.queue.empty() || nic.working;
        engine.check_deadlock();
        nic.sleeping = true;
        nic.doorbell->acquire();
        continue;
      }
      ProgressChunk chunk = std::move(nic.queue.front());
      nic.queue.pop_front();
      step(engine, nic, owner, chunk);
    }
  }

  const ModelParameters& p_;
  std::vector<std::unique_ptr<Nic>> nics_;
};

}  // namespace

std::unique_ptr<ProgressPolicy> make_offload_policy(const ModelParameters& parameters)
{
  return std::make_unique<OffloadPolicy>(parameters);
}

}  // namespace progsim::mpi
