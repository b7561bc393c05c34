#include "progress/ProgressEngine.hpp"

#include "sim/ActingTime.hpp"
#include "sim/Diagnostics.hpp"
#include "sim/HostExecution.hpp"
#include "sim/RankStateListener.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/MemoryWatch.hpp"
#include "sim/timeline/Timeline.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <cstdio>
#include <cstdlib>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

ProgressEngine::ProgressEngine(sim::Simulation& simulation, const ModelParameters& parameters,
                               const PolicyDescription& description, std::unique_ptr<ProgressPolicy> policy)
    : simulation_(simulation), parameters_(parameters), description_(description), policy_(std::move(policy))
{
  // PROGSIM_OVERLAP_MAX_INTERVALS=N (tests, overlap.bound.*): the overlap
  // meter's bound on kept intervals instead of OverlapMeter::kMaxIntervals,
  // so that a test reaches it in thousands of MPI calls, not a million. A
  // value that is not a number from 2 to kMaxIntervals is ignored.
  std::uint32_t overlap_bound = OverlapMeter::kMaxIntervals;
  if (const char* text = std::getenv("PROGSIM_OVERLAP_MAX_INTERVALS")) {
    char* end = nullptr;
    unsigned long long n = std::strtoull(text, &end, 10);
    if (end != text && *end == '\0' && n >= 2 && n <= OverlapMeter::kMaxIntervals)
      overlap_bound = static_cast<std::uint32_t>(n);
  }
  for (int r = 0; r < simulation.size(); ++r) {
    ranks_.push_back(std::make_unique<RankProgress>(*this, simulation.rank(r)));
    if (overlap_bound != OverlapMeter::kMaxIntervals)
      ranks_.back()->overlap = OverlapMeter(overlap_bound);
  }
  active_ranks_ = simulation.size();
  // PROGSIM_WAKE_EVERY_COMPLETION (set, any value): every completion wakes
  // its rank, as before the looks were applied; tests compare the two paths
  // (tests/progress/wake_every_completion.sh).
  applies_looks_ = policy_->wakes_may_be_looks() && std::getenv("PROGSIM_WAKE_EVERY_COMPLETION") == nullptr;
  // Progress threads run beside their ranks: a rank's executions stay
  // SimGrid's five-simcall this_actor::execute (sim/HostExecution).
  sim::allow_two_simcall_executions(!policy_->agents_are_actors());
  // Time in MPI calls (entered, blocked, left) for the overlap measure.
  sim::set_rank_state_listener(
      [](void* engine, const sim::Rank& r, double now) {
        sim::RankState s = r.state();
        bool in_mpi = s == sim::RankState::InMpi || s == sim::RankState::Blocked;
        OverlapMeter& overlap = static_cast<ProgressEngine*>(engine)->ranks_[static_cast<size_t>(r.id())]->overlap;
        overlap.note_in_mpi(in_mpi, now);
      },
      this);
  // A rank busy-waiting on watched memory waits like a blocked call: only a
  // write (by another rank or an RMA operation) can release it.
  sim::memory::MemoryWatch::instance().set_poll_listener([this](int, bool polling) {
    note_waiting(polling);
    if (polling)
      check_deadlock();
  });
}

ProgressEngine::~ProgressEngine()
{
  sim::set_rank_state_listener(nullptr, nullptr);
  // For tests/progress/wake_every_completion.sh: whether the path it
  // compares against the unoptimized one was taken.
  if (std::getenv("PROGSIM_COUNT_LOOKS"))
    std::fprintf(stderr, "progsim: looks applied without waking a rank: %llu\n",
                 static_cast<unsigned long long>(looks_applied_));
}

void ProgressEngine::start(std::function<std::size_t()> packets_in_flight,
                           std::function<std::pair<std::string, nlohmann::ordered_json>()> diagnose,
                           std::function<std::size_t(int)> posted_receives)
{
  diagnose_ = std::move(diagnose);
  posted_receives_ = std::move(posted_receives);
  packets_in_flight_ = std::move(packets_in_flight);
  watcher_wakeup_ = sg4::Semaphore::create(0);
  sg4::ActorPtr watcher = sg4::Actor::create("deadlock-watcher", rank(0).sim_rank().host(), [this] {
    for (;;) {
      watcher_wakeup_->acquire();
      watcher_ringing_ = false;
      check_deadlock();
    }
  });
  watcher->daemonize();
  policy_->start(*this);
}

void ProgressEngine::enable(int owner, ChunkStep step, int peer, std::uint64_t message_id, std::size_t bytes,
                            std::function<void()> action)
{
  ProgressChunk chunk;
  chunk.step = step;
  chunk.owner = owner;
  chunk.peer = peer;
  chunk.message_id = message_id;
  chunk.bytes = bytes;
  dispatch_new(std::move(chunk), std::move(action));
}

void ProgressEngine::enable_round(int owner, const char* call, int round, int rounds, std::function<void()> action)
{
  ProgressChunk chunk;
  chunk.step = ChunkStep::CollNextRound;
  chunk.owner = owner;
  chunk.peer = owner;
  chunk.call = call;
  chunk.round = round;
  chunk.rounds = rounds;
  dispatch_new(std::move(chunk), std::move(action));
}

void ProgressEngine::dispatch_new(ProgressChunk chunk, std::function<void()> action)
{
  if (effects_stopped_)
    return;
  sim::settle_before_effect_on(chunk.owner);  // enabled by another rank: at its clock (may yield)
  chunk.id = ++next_chunk_id_;
  chunk.enabled_at = sim::acting_time();
  chunk.action = std::move(action);
  int owner = chunk.owner;
  policy_->dispatch(*this, rank(owner), std::move(chunk));
}

const char* ProgressEngine::label(Executor executor) const
{
  if (executor == Executor::Agent && description_.executor)
    return description_.executor->label.c_str();
  return rank_executor().label.c_str();
}

void ProgressEngine::execute(RankProgress& owner, ProgressChunk& chunk, Executor executor)
{
  if (effects_stopped_)
    return;  // queued (a NIC's, an ideal lane's) before the run stopped
  ProgressCounters& c = owner.counters;
  // The action runs before its cost is charged: charging may yield, and the
  // chunks of one rank must take effect in the order they were enabled
  // (matching order is message order, MPI-4.1 §3.5).
  chunk.action();
  sim::memory::MemoryWatch::instance().deliver_pending();  // the chunk may have written watched memory
  double run_at = executor == Executor::Rank ? owner.sim_rank().clock().now() : sg4::Engine::get_clock();
  delays_.note(chunk, run_at, executor, label(executor));
  owner.overlap.note_stalled(chunk.enabled_at, run_at);
  if (chunk.peer != owner.rank() && chunk.peer >= 0 && chunk.peer < size())
    rank(chunk.peer).overlap.note_stalled(chunk.enabled_at, run_at);  // its message waited too
  if (sim::Timeline* timeline = sim::Timeline::active())
    timeline->chunk(owner.rank(), run_at, label(executor), chunk.describe(),
                    executor == Executor::Rank ? owner.sim_rank().current_call() : nullptr);
  if (executor == Executor::Agent) {
    ++c.chunks_by_agent;
    return;
  }
  ++c.chunks_by_rank;
  owner.sim_rank().clock().charge_cpu(parameters_.chunk_cost);
}

void ProgressEngine::check_deadlock()
{
  // Cheapest first: this runs after every packet. A packet in flight or a
  // busy agent will call this again when the fabric or the agent goes idle,
  // so neither is a deadlock yet, and neither needs the watcher: rung from
  // every look a NIC step applied while the other ranks waited (the step
  // itself keeps its NIC busy), it cost a ping-pong under offload a simcall
  // and a context switch per message (3 and 5 instead of 2 and 4).
  if (!simulation_.running() || active_ranks_ > 0)
    return;
  if (packets_in_flight_ && packets_in_flight_() > 0)
    return;
  if (policy_->agents_busy())
    return;
  if (sg4::Actor::is_maestro()) {
    if (!watcher_ringing_) {
      watcher_ringing_ = true;
      watcher_wakeup_->release();
    }
    return;
  }
  int blocked = 0;
  for (auto& rp : ranks_) {
    sim::RankState state = rp->sim_rank().state();
    if (state == sim::RankState::Finished || state == sim::RankState::Failed)
      continue;
    if (state == sim::RankState::Polling) {  // in user code: its queued chunks do not run
      ++blocked;
      continue;
    }
    if (!rp->waiting() || !rp->host_queue().empty())
      return;  // this rank can still do something
    ++blocked;
  }
  if (blocked == 0)
    return;
  simulation_.end_run(sim::Outcome::Deadlock, deadlock_report(), sim::kExitDeadlock);
}

bool ProgressEngine::nothing_can_arrive(const RankProgress& self) const
{
  // Cheapest first: this runs at every false test of a long series.
  if (active_ranks_ > 1 + spinning_ranks_)
    return false;  // some rank runs that is not looping on tests
  if ((packets_in_flight_ && packets_in_flight_() > 0) || policy_->agents_busy())
    return false;
  for (const auto& rp : ranks_) {
    if (rp.get() == &self)
      continue;
    sim::RankState state = rp->sim_rank().state();
    if (state == sim::RankState::Finished || state == sim::RankState::Failed || state == sim::RankState::Polling)
      continue;
    if (rp->waiting() ? !rp->host_queue().empty() : !rp->spinning())
      return false;
  }
  return true;
}

void ProgressEngine::note_rank_end(int r)
{
  RankProgress& rp = rank(r);
  if (rp.ended_)
    return;
  rp.ended_ = true;
  ++ended_ranks_;
  rp.end_test_loop();
  if (!rp.waiting())
    --active_ranks_;
}

std::string ProgressEngine::deadlock_report()
{
  auto [text, json] = diagnose_();
  deadlock_json_ = json;
  return "deadlock at " + sim::format_time(simulation_.latest_clock()) +
         ": every rank still running is blocked inside MPI (or polls watched memory, or loops on test calls that "
         "find nothing) and nothing is in flight" +
         text;
}

}  // namespace progsim::mpi
