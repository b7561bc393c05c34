#include "progress/RankProgress.hpp"

#include "progress/ProgressEngine.hpp"
#include "sim/ActingTime.hpp"
#include "sim/Rank.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/timeline/Timeline.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Engine.hpp>

#include <algorithm>
#include <cstring>
#include <iterator>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

namespace {

// The procedures that call RankProgress::test_found_nothing.
bool is_test_procedure(const char* call)
{
  static const char* const tests[] = {"MPI_Test",    "MPI_Testany",  "MPI_Testall",  "MPI_Testsome",
                                      "MPI_Iprobe",  "MPI_Improbe",  "MPI_Win_test", "MPI_Request_get_status"};
  return std::any_of(std::begin(tests), std::end(tests), [call](const char* t) { return std::strcmp(t, call) == 0; });
}

}  // namespace

RankProgress::RankProgress(ProgressEngine& engine, sim::Rank& rank)
    : engine_(engine), rank_(rank), wakeup_(sg4::Semaphore::create(0))
{
}

int RankProgress::rank() const
{
  return rank_.id();
}

void RankProgress::progress_point()
{
  engine_.policy().on_rank_progress_point(*this);
  // A poll runs the chunks queued when it starts; those enabled while it
  // runs them wait for the next poll. So a rank whose costs are deferred
  // (SimGrid's clock behind its own, RankClock) runs the same chunks as if
  // they were executed: what arrives meanwhile it meets when it next looks.
  // Pop one at a time: running a chunk may yield (CPU cost) and other agents
  // may take chunks from this queue meanwhile.
  rank_.clock().observe();
  for (std::size_t found = host_queue_.size(); found > 0 && !host_queue_.empty(); --found) {
    ProgressChunk chunk = std::move(host_queue_.front());
    host_queue_.pop_front();
    engine_.execute(*this, chunk, Executor::Rank);
  }
}

void RankProgress::wait_until(const std::function<bool()>& done, const std::function<std::string()>& describe,
                              WaitOn on)
{
  struct InWait {
    RankProgress& self;
    bool was_in_wait;
    WaitOn was_on;
    bool was_in_mpi;
    InWait(RankProgress& s, WaitOn on)
        : self(s), was_in_wait(s.in_wait_), was_on(s.wait_on_), was_in_mpi(s.waits_in_mpi_)
    {
      self.in_wait_ = true;
      self.wait_on_ = on;
      sim::RankState state = self.rank_.state();
      self.waits_in_mpi_ = state == sim::RankState::InMpi || state == sim::RankState::Blocked;
    }
    ~InWait()
    {
      self.in_wait_ = was_in_wait;
      self.wait_on_ = was_on;
      self.waits_in_mpi_ = was_in_mpi;
    }
  } in_wait(*this, on);
  // Looking at what the rank waits for is looking at arrivals.
  auto is_done = [this, &done] {
    rank_.clock().observe();
    return done();
  };
  rank_.clock().charge_cpu(engine_.parameters().poll_cost);
  progress_point();
  if (is_done())
    return;
  sim::RankState before = rank_.state();
  double since = rank_.clock().now();
  waiting_since_ = since;
  rank_.set_blocked_on(&describe);
  call_site_ = engine_.parameters().call_sites ? sim::memory::program_call_site(rank_.call_return_address()) : 0;
  bool poll = true;
  for (;;) {
    // Chunks may have been queued while this rank was not yet waiting (a
    // chunk's cost may yield): run them before deciding to block, or their
    // wake-up would be lost.
    if (poll)
      progress_point();
    poll = true;
    if (is_done())
      break;
    if ((rank_.clock().observe(), !host_queue_.empty()))
      continue;
    rank_.set_state(sim::RankState::Blocked);
    set_waiting(true);
    engine_.check_deadlock();
    // wake() releases once per wait and clears waiting_, so the semaphore
    // never accumulates releases.
    bool waited = true;
    if (waiting_) {
      look_applied_at_ = -1;
      blocked_at_ = rank_.clock().begin_block();
      wakeup_->acquire();
      rank_.clock().end_block(blocked_at_);
      waited = woken_at_ >= blocked_at_;
    }
    rank_.set_state(before);
    // What woke a rank that blocked ahead of SimGrid's clock (deferred
    // costs) may have happened before its own clock: it was there when the
    // rank looked, in its own time. Then the rank, released at its clock
    // (wake), looks again as it did then, without a new poll. Otherwise the
    // poll that notices the wake-up.
    if (waited)
      rank_.clock().charge_cpu(engine_.parameters().poll_cost);
    else
      poll = false;
  }
  counters.blocked_time += std::max(0.0, rank_.clock().now() - since);
  rank_.set_blocked_on(nullptr);
}

const std::string& RankProgress::waiting_for() const
{
  return rank_.blocked_on();
}

double RankProgress::blocked_time(double now) const
{
  return counters.blocked_time + (waiting_ ? now - waiting_since_ : 0.0);
}

std::uint64_t RankProgress::livelock_limit() const
{
  return static_cast<std::uint64_t>(std::max(0LL, engine_.parameters().livelock_tests));
}

bool RankProgress::test_found_nothing()
{
  std::uint64_t limit = livelock_limit();
  std::uint64_t calls = rank_.mpi_calls();
  bool in_a_row =
      idle_tests_ > 0 && calls == calls_at_false_test_ + 1 && rank_.clock_reads == clock_reads_at_false_test_;
  calls_at_false_test_ = calls;
  clock_reads_at_false_test_ = rank_.clock_reads;
  if (!in_a_row) {
    end_test_loop();
    loop_since_ = rank_.clock().now();
  }
  if (++idle_tests_ == limit)
    engine_.note_spinning(true);
  return limit > 0 && idle_tests_ >= limit && host_queue_.empty() && engine_.nothing_can_arrive(*this);
}

void RankProgress::hold_test(const std::function<void(const std::function<bool()>& done)>& block)
{
  std::uint64_t seen = wakes_;
  held_ = true;
  block([this, seen] { return wakes_ != seen; });
  held_ = false;
  end_test_loop();
}

bool RankProgress::spinning() const
{
  std::uint64_t limit = livelock_limit();
  if (limit == 0 || idle_tests_ < limit || rank_.clock_reads != clock_reads_at_false_test_ || !host_queue_.empty())
    return false;
  // In user code after its last false test, or already in the next test
  // call (whose costs may have yielded before it tests).
  std::uint64_t calls = rank_.mpi_calls();
  return calls == calls_at_false_test_ ||
         (calls == calls_at_false_test_ + 1 && rank_.current_call() && is_test_procedure(rank_.current_call()));
}

void RankProgress::end_test_loop()
{
  std::uint64_t limit = livelock_limit();
  if (limit > 0 && idle_tests_ >= limit)
    engine_.note_spinning(false);
  idle_tests_ = 0;
}

void RankProgress::wake()
{
  ++wakes_;
  // Not blocked: nothing to release, but a look deferred to the rank's clock
  // must release it all the same, to look at this (take_deferred_look).
  auto not_waiting = [this] {
    if (!waiting_ && look_deferred_)
      woken_during_look_ = true;
    return !waiting_;
  };
  if (not_waiting())
    return;
  sim::settle_before_effect_on(rank());  // woken by another rank: at that rank's clock (may yield)
  if (not_waiting())
    return;
  if (look_applied_at_ >= 0 && look_applied_at_ == sg4::Engine::get_clock()) {
    // The look's wake-up released the rank at this instant and it has not
    // run yet: this wake changes nothing, the rank runs as released then.
    blocked_at_ = blocked_at_before_look_;
    rank_.clock().set_debt_while_blocked(debt_before_look_);
    look_applied_at_ = -1;
    set_waiting(false);
    woken_at_ = woken_at_by_look_;
    wakeup_->release();
    return;
  }
  look_applied_at_ = -1;
  set_waiting(false);
  woken_at_ = sim::acting_time();
  // A rank that blocked ahead of SimGrid's clock (deferred costs) goes on at
  // its own clock: it is released then, and looks at the world as of then.
  if (blocked_at_ > simgrid::s4u::Engine::get_clock()) {
    simgrid::kernel::timer::Timer::set(blocked_at_, [semaphore = wakeup_] { semaphore->release(); });
    return;
  }
  wakeup_->release();
}

void RankProgress::wake_unless_selective()
{
  if (!apply_look())
    wake();
}

bool RankProgress::apply_look()
{
  if (look_deferred_) {
    ++wakes_;  // released at blocked_at_ already: wake() would change nothing
    return true;
  }
  // Only a wait that this cannot end, in an MPI call, under a policy that
  // allows it (ProgressPolicy::wakes_may_be_looks), from the maestro (NIC
  // steps: a rank waking it settles first and runs among the actors), in a
  // run going on.
  if (!waiting_ || wait_on_ != WaitOn::Requests || !waits_in_mpi_ || !engine_.applies_looks() ||
      !sg4::Actor::is_maestro() || rank_.frozen())
    return false;
  double now = sg4::Engine::get_clock();
  if (look_applied_at_ == now) {
    ++wakes_;  // the look's wake-up released it at this instant already
    return true;
  }
  // A look that would run chunks, execute its poll, or show on the timeline:
  // the real path.
  double poll = engine_.parameters().poll_cost;
  if (!host_queue_.empty() || sim::Timeline::active() || !rank_.clock().poll_after_block_defers(poll))
    return false;
  ++wakes_;
  engine_.note_look_applied();
  // What wake() and wait_until do from here: woken now, ...
  look_applied_at_ = -1;
  set_waiting(false);
  woken_at_ = now;
  if (blocked_at_ > now) {
    // ... released at its own clock, later (take_deferred_look), ...
    look_deferred_ = true;
    woken_during_look_ = false;
    simgrid::kernel::timer::Timer::set(blocked_at_, [this] { take_deferred_look(); });
    return true;
  }
  // ... or now: end_block (debt 0: now >= blocked_at_), the poll's cost as
  // debt (woken_at_ >= blocked_at_: it waited), a progress point and done()
  // that find nothing, and begin_block at its clock.
  double debt = 0;
  if (poll > 0)
    debt += poll;
  set_looked(now + debt, debt);  // RankClock::now() then
  return true;
}

void RankProgress::take_deferred_look()
{
  look_deferred_ = false;
  if (woken_during_look_ || rank_.frozen()) {
    wakeup_->release();  // as wake() arranged: the rank looks at what happened meanwhile
    return;
  }
  // Released at its clock (end_block: debt 0, SimGrid's clock = blocked_at_),
  // it did not wait (woken before its clock): no poll, done() finds
  // nothing, and it blocks again at the same clock.
  set_looked(blocked_at_, 0);
}

void RankProgress::set_looked(double clock, double debt)
{
  // The state changes in between (InMpi, Blocked; waiting and not) are seen
  // by nobody: no timeline, the overlap meter counts both as in MPI, no
  // other actor runs meanwhile; the deadlock check the rank makes when it
  // blocks again is the watcher's (check_deadlock from the maestro).
  look_applied_at_ = sg4::Engine::get_clock();
  blocked_at_before_look_ = blocked_at_;
  debt_before_look_ = rank_.clock().pending();
  woken_at_by_look_ = woken_at_;
  rank_.clock().set_debt_while_blocked(debt);
  blocked_at_ = clock;
  set_waiting(true);
  engine_.check_deadlock();
}

void RankProgress::set_waiting(bool waiting)
{
  if (waiting_ == waiting)
    return;
  waiting_ = waiting;
  if (!ended_)
    engine_.note_waiting(waiting);
}

}  // namespace progsim::mpi
