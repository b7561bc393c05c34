// offload: the NIC runs matching and the rendezvous / acknowledgement steps
// itself (Portals- or BXI-like offload), one step at a time with
// nic-step-latency each, without the host CPU. Its matching table holds
// nic-match-entries posted receives; when a rank has more, matching falls
// back to the host (weak progress). Unexpected messages are matched by the
// host when the receive is posted, as always. Collectives are offloaded as
// triggered operations (Portals 4, CORE-Direct): the NIC starts a round when
// the previous one completed, but the host must have written every round's
// message descriptors when the collective started, at nic-post-cost each.
//
// A NIC is a queue and a clock, not an actor: the step in hand ends with a
// SimGrid kernel timer nic-step-latency after it started, and its effects
// (matching, completing a request, waking the rank, sending the next packet)
// run in that timer's callback; the next queued step starts then. This is
// the same timing as an actor sleeping for each step, without a context
// switch and a sleep activity per message (the ping-pong speed target).
// Timer callbacks run in SimGrid's maestro: the deadlock check after a step
// is left to the progress engine's watcher (ProgressEngine::check_deadlock).

#include "progress/PolicyDescription.hpp"
#include "progress/ProgressEngine.hpp"
#include "sim/Config.hpp"
#include "sim/Rank.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <deque>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

namespace {

class OffloadParameters final : public PolicyParameters {
public:
  double step_latency = 500e-9;   // time the NIC takes for one protocol step
  long long match_entries = 512;  // posted receives the NIC can match; beyond, the host does
  double post_cost = 300e-9;      // host CPU to write one operation descriptor to the NIC

  void register_parameters(sim::Config& config) override
  {
    config.add("nic-step-latency", step_latency, {0, 1}, "s", "offload: time the NIC needs for one protocol step");
    config.add("nic-match-entries", match_entries, {0, 1e9}, "",
               "offload: posted receives the NIC can match; beyond, matching falls back to the host");
    config.add("nic-post-cost", post_cost, {0, 1}, "s",
               "offload: host CPU time to write one operation descriptor to the NIC (a collective's later rounds "
               "are all written when it starts; descriptor write + doorbell, as ibv_post_send or PtlTriggeredPut)");
  }
  std::unique_ptr<ProgressPolicy> make_policy(const ModelParameters& model) const override;
};

// The report fields, in the order of OffloadPolicy::rank_field.
enum OffloadField : std::size_t { kHostFallback, kNicDescriptors };

class OffloadPolicy final : public ProgressPolicy {
public:
  explicit OffloadPolicy(const OffloadParameters& p) : p_(p) {}

  const char* name() const override { return "offload"; }

  void start(ProgressEngine& engine) override
  {
    engine_ = &engine;
    nics_.resize(static_cast<size_t>(engine.size()));
  }

  void dispatch(ProgressEngine& engine, RankProgress& owner, ProgressChunk chunk) override
  {
    Nic& nic = nics_[static_cast<size_t>(owner.rank())];
    bool matching = is_matching(chunk);
    if (matching && matched_by_host(engine, owner, nic)) {
      ++nic.host_fallback;
      owner.host_queue().push_back(std::move(chunk));
      owner.wake();
      return;
    }
    nic.matching += matching ? 1 : 0;
    nic.queue.push_back(std::move(chunk));
    if (!nic.working)
      start_step(nic, owner.rank());
  }

  double collective_setup_cost(RankProgress& owner, std::size_t later_messages) override
  {
    nics_[static_cast<size_t>(owner.rank())].descriptors += later_messages;
    return p_.post_cost * static_cast<double>(later_messages);
  }

  bool agents_busy() const override { return working_nics_ > 0; }
  // No progress point hook; a rank's steps are its NIC's, one at a time,
  // each at its own instant when they take time.
  bool wakes_may_be_looks() const override { return p_.step_latency > 0; }

  void add_to_report(nlohmann::ordered_json& report) const override
  {
    report["nic"] = {
        {"step_latency", p_.step_latency}, {"match_entries", p_.match_entries}, {"post_cost", p_.post_cost}};
  }

  double rank_field(int rank, std::size_t field) const override
  {
    if (static_cast<size_t>(rank) >= nics_.size())
      return 0;  // not started
    const Nic& nic = nics_[static_cast<size_t>(rank)];
    return static_cast<double>(field == kHostFallback ? nic.host_fallback : nic.descriptors);
  }

private:
  struct Nic {
    std::deque<ProgressChunk> queue;  // the front is the step in hand while working
    std::size_t matching = 0;         // matching steps in `queue`
    bool working = false;
    std::uint64_t host_fallback = 0;  // matching steps the NIC could not take (run by the host)
    std::uint64_t descriptors = 0;    // collective messages the host wrote to the NIC up front
  };

  static bool is_matching(const ProgressChunk& chunk)
  {
    return chunk.step == ChunkStep::EagerOnMessageTarget || chunk.step == ChunkStep::RtsOnRtsTarget;
  }

  // Whether the host, not the NIC, matches the next arrival: when the NIC's
  // table is full. Arrivals are matched in the order they arrived whoever
  // matches them (MPI-4.1 §3.5): one behind arrivals the NIC still holds
  // goes to the NIC, one behind arrivals waiting for the host (the host
  // queue holds nothing else under offload) goes to the host.
  bool matched_by_host(ProgressEngine& engine, RankProgress& owner, const Nic& nic) const
  {
    if (nic.matching > 0)
      return false;
    if (!owner.host_queue().empty())
      return true;
    return engine.posted_receives(owner.rank()) > static_cast<std::size_t>(p_.match_entries);
  }

  // Starts the step at the front of the queue of `rank`'s NIC; it takes
  // effect when its latency has passed. The callback holds the policy and the
  // rank only: within SimGrid's 24 bytes of inline storage for a timer's
  // callback, no allocation per step.
  void start_step(Nic& nic, int rank)
  {
    if (!nic.working)
      ++working_nics_;
    nic.working = true;
    simgrid::kernel::timer::Timer::set(sg4::Engine::get_clock() + p_.step_latency,
                                       [this, rank] { finish_step(rank); });
  }

  void finish_step(int rank)
  {
    Nic& nic = nics_[static_cast<size_t>(rank)];
    ProgressChunk chunk = std::move(nic.queue.front());
    nic.queue.pop_front();
    nic.matching -= is_matching(chunk) ? 1 : 0;
    engine_->execute(engine_->rank(rank), chunk, Executor::Agent);
    if (!nic.queue.empty()) {
      start_step(nic, rank);
      return;
    }
    nic.working = false;
    --working_nics_;
    engine_->check_deadlock();  // this step may have been the last thing that could happen
  }

  const OffloadParameters& p_;
  ProgressEngine* engine_ = nullptr;  // set by start()
  std::vector<Nic> nics_;
  std::size_t working_nics_ = 0;  // deadlock checks ask at every quiet moment: no scan of every NIC
};

std::unique_ptr<ProgressPolicy> OffloadParameters::make_policy(const ModelParameters&) const
{
  return std::make_unique<OffloadPolicy>(*this);
}

}  // namespace

const PolicyDescription& offload_policy()
{
  static const PolicyDescription description{
      "offload",
      "the NIC matches and runs protocol steps with its own latency and limited resources",
      ExecutorDescription{"nic", "#2ca02c", "by the NIC"},
      {{"host_fallback", ReportField::Unit::Count, true, "", ""},
       {"nic_descriptors", ReportField::Unit::Count, false, "", ""}},
      own_parameters<OffloadParameters>};
  return description;
}

}  // namespace progsim::mpi
