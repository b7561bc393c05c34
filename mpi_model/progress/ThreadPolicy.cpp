// thread: a progress thread per rank, on the rank's host, polls every
// thread-interval and runs the rank's queued chunks (MPI-5.0 §3.9 names it
// as a legal way to progress). It costs CPU: while idle it keeps a core
// busy at thread-poll-cost / thread-interval (a bounded SimGrid execution,
// so it shares cores with the rank's computation when the host has no spare
// core), and each poll that finds work costs thread-poll-cost plus
// chunk-cost per chunk. The rank still progresses its own chunks when
// blocked inside MPI (then the thread is not woken for them); every MPI call
// pays thread-lock-cost. An idle thread notices a chunk at its next poll,
// a kernel timer at that instant: if the rank ran the chunk meanwhile, that
// poll found nothing (one of the idle polls accounted), so the thread's
// actor is not woken for it.

#include "ModelParameters.hpp"
#include "progress/PolicyDescription.hpp"
#include "progress/ProgressEngine.hpp"
#include "sim/Config.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Exec.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <cmath>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

namespace {

class ThreadParameters final : public PolicyParameters {
public:
  double interval = 2e-6;     // time between two polls
  double poll_cost = 200e-9;  // CPU seconds of one poll
  double lock_cost = 30e-9;   // extra cost of every MPI call (thread-safe library)

  void register_parameters(sim::Config& config) override
  {
    config.add("thread-interval", interval, {1e-9, 1}, "s",
               "thread: time between two polls of the progress thread (never 0: the thread would poll without "
               "simulated time passing)");
    config.add("thread-poll-cost", poll_cost, {0, 1}, "s", "thread: CPU time of one poll of the progress thread");
    config.add("thread-lock-cost", lock_cost, {0, 1}, "s",
               "thread: extra CPU time of every MPI call (the library is thread-safe)");
  }
  std::unique_ptr<ProgressPolicy> make_policy(const ModelParameters& model) const override;
};

// The report fields, in the order of ThreadPolicy::rank_field.
enum ThreadField : std::size_t { kThreadCpu, kThreadPolls };

class ThreadPolicy final : public ProgressPolicy {
public:
  ThreadPolicy(const ModelParameters& model, const ThreadParameters& p) : model_(model), p_(p) {}

  const char* name() const override { return "thread"; }

  void start(ProgressEngine& engine) override
  {
    for (int r = 0; r < engine.size(); ++r) {
      agents_.push_back(std::make_unique<Agent>());
      Agent* agent = agents_.back().get();
      RankProgress* owner = &engine.rank(r);
      sg4::ActorPtr actor = sg4::Actor::create("progress-thread-" + std::to_string(r), owner->sim_rank().host(),
                                               [this, &engine, agent, owner] { run(engine, *agent, *owner); });
      actor->daemonize();
    }
  }

  void dispatch(ProgressEngine& engine, RankProgress& owner, ProgressChunk chunk) override
  {
    owner.host_queue().push_back(std::move(chunk));
    // A rank blocked inside MPI runs the chunk itself at once, before the
    // thread's next poll could: the thread's poll would find nothing, and is
    // one of the idle polls accounted anyway, so the thread is not woken.
    if (owner.waiting()) {
      owner.wake();
      return;
    }
    Agent& agent = *agents_[static_cast<size_t>(owner.rank())];
    set_busy(agent, !agent.stopped);
    notice_at_next_poll(engine, agent, owner);
  }

  double call_overhead() const override { return p_.lock_cost; }

  bool agents_busy() const override { return busy_agents_ > 0; }
  bool agents_are_actors() const override { return true; }  // a progress thread per rank

  void on_rank_end(ProgressEngine&, int rank) override
  {
    Agent& agent = *agents_[static_cast<size_t>(rank)];
    agent.stopped = true;
    set_busy(agent, false);
    wake_up(agent);
  }

  void add_to_report(nlohmann::ordered_json& report) const override
  {
    report["progress_thread"] = {{"interval", p_.interval}, {"poll_cost", p_.poll_cost}, {"lock_cost", p_.lock_cost}};
  }

  double rank_field(int rank, std::size_t field) const override
  {
    if (static_cast<size_t>(rank) >= agents_.size())
      return 0;  // not started
    const Agent& agent = *agents_[static_cast<size_t>(rank)];
    return field == kThreadCpu ? agent.cpu : static_cast<double>(agent.polls);
  }

private:
  struct Agent {
    // While it has nothing to do the thread sleeps on `wake`, and its
    // polling is a background execution bounded to the polling fraction of
    // a core. Waking cancels that execution and accounts the idle polls
    // where the wake happens (a daemon thread may never run again once its
    // rank ended). The thread does not wait on the execution itself: waking
    // a waiter through cancel() would cost a C++ exception per message.
    sg4::SemaphorePtr wake = sg4::Semaphore::create(0);
    sg4::ExecPtr idle_poll;
    double idle_since = 0;
    bool busy = false;  // has chunks in hand or is about to poll them
    bool stopped = false;
    bool poll_due = false;     // notice_at_next_poll's timer is set
    bool woken_at_poll = false;  // by that timer: the thread is at its poll tick
    double cpu = 0;  // CPU seconds used
    std::uint64_t polls = 0;
  };

  void set_busy(Agent& agent, bool busy)
  {
    if (agent.busy != busy)
      busy ? ++busy_agents_ : --busy_agents_;
    agent.busy = busy;
  }

  double idle_fraction() const { return std::min(1.0, p_.poll_cost / p_.interval); }

  // The thread's polls are at the multiples of the interval: the first at or
  // after `now`.
  double next_poll(double now) const { return std::ceil(now / p_.interval) * p_.interval; }

  void wake_up(Agent& agent) const
  {
    if (!agent.idle_poll)
      return;
    double idle = sg4::Engine::get_clock() - agent.idle_since;
    agent.polls += static_cast<std::uint64_t>(idle / p_.interval);
    agent.cpu += idle * idle_fraction();
    sg4::ExecPtr poll = std::move(agent.idle_poll);
    agent.idle_poll = nullptr;
    poll->cancel();
    agent.wake->release();
  }

  // The idle thread's next poll, at the next multiple of the interval: it
  // runs the queued chunks, or finds none (the rank ran them) and stays idle.
  void notice_at_next_poll(ProgressEngine& engine, Agent& agent, RankProgress& owner)
  {
    if (!agent.idle_poll || agent.poll_due)
      return;  // busy (polls on its own), or that poll is already set
    agent.poll_due = true;
    simgrid::kernel::timer::Timer::set(next_poll(sg4::Engine::get_clock()), [this, &engine, &agent, &owner] {
      agent.poll_due = false;
      if (!agent.idle_poll)
        return;  // woken meanwhile (its rank ended)
      if (owner.host_queue().empty()) {
        set_busy(agent, false);
        engine.check_deadlock();
        return;
      }
      agent.woken_at_poll = true;
      wake_up(agent);
    });
  }

  void run(ProgressEngine& engine, Agent& agent, RankProgress& owner)
  {
    sg4::Host* host = owner.sim_rank().host();
    for (;;) {
      if (owner.host_queue().empty()) {
        set_busy(agent, false);
        engine.check_deadlock();
        if (agent.stopped)
          return;
        // Idle polling: a fraction of a core, until a chunk arrives.
        agent.idle_since = sg4::Engine::get_clock();
        agent.idle_poll = sg4::this_actor::exec_init(1e300)->set_bound(host->get_speed() * idle_fraction());
        agent.idle_poll->start();
        agent.wake->acquire();
        if (agent.stopped)
          return;
        if (owner.host_queue().empty())
          continue;
      }
      set_busy(agent, true);
      // The thread notices new work at its next poll (where its timer woke it).
      if (!agent.woken_at_poll) {
        double now = sg4::Engine::get_clock();
        double tick = next_poll(now);
        if (tick > now)
          sg4::this_actor::sleep_until(tick);
      }
      agent.woken_at_poll = false;
      sg4::this_actor::execute(p_.poll_cost * host->get_speed());
      ++agent.polls;
      agent.cpu += p_.poll_cost;
      while (!owner.host_queue().empty()) {
        // The chunk's cost is paid while it is still queued, and the thread
        // then runs whichever chunk is first: the rank, blocked in MPI, may
        // have run it meanwhile, and must not run a newer one before it
        // (RankProgress::host_queue).
        sg4::this_actor::execute(model_.chunk_cost * host->get_speed());
        agent.cpu += model_.chunk_cost;
        if (owner.host_queue().empty())
          break;
        ProgressChunk chunk = std::move(owner.host_queue().front());
        owner.host_queue().pop_front();
        engine.execute(owner, chunk, Executor::Agent);
      }
    }
  }

  const ModelParameters& model_;
  const ThreadParameters& p_;
  std::vector<std::unique_ptr<Agent>> agents_;
  std::size_t busy_agents_ = 0;  // deadlock checks ask at every quiet moment: no scan of every agent
};

std::unique_ptr<ProgressPolicy> ThreadParameters::make_policy(const ModelParameters& model) const
{
  return std::make_unique<ThreadPolicy>(model, *this);
}

}  // namespace

const PolicyDescription& thread_policy()
{
  static const PolicyDescription description{
      "thread",
      "a progress thread per rank polls periodically; it costs CPU and shares cores with the rank",
      ExecutorDescription{"thread", "#9467bd", "by a progress thread"},
      {{"progress_thread_cpu", ReportField::Unit::Seconds, false, "thread CPU", "CPU seconds used by progress threads"},
       {"progress_thread_polls", ReportField::Unit::Count, false, "", ""}},
      own_parameters<ThreadParameters>};
  return description;
}

}  // namespace progsim::mpi
