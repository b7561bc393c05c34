#include "sim/memory/MemoryWatch.hpp"

#include "sim/memory/FaultHandler.hpp"
#include "sim/memory/Trampoline.hpp"
#include "sim/memory/Watchdog.hpp"
#include "sim/memory/WatchTable.hpp"

#include "sim/Rank.hpp"
#include "sim/RuntimeParameters.hpp"
#include "sim/Simulation.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

namespace sg4 = simgrid::s4u;

namespace progsim::sim::memory {

namespace {

// Each instruction/address pair a rank reads is remembered; a loop touches
// few of them, so the oldest are forgotten beyond this.
constexpr std::size_t kReadsRemembered = 16;

// Calls visit(page) for each watched page that may hold the stack frames of
// an MPI call entered at `frame`: the library's frames lie below it (256 KiB
// is deeper than it goes), the caller's just above. Stops when visit
// returns false.
template <class Visit>
void for_each_call_stack_page(const void* frame, Visit&& visit)
{
  constexpr std::uintptr_t kLibraryStack = 256 * 1024;
  std::uintptr_t page = WatchTable::page_size();
  std::uintptr_t top = WatchTable::page_of(reinterpret_cast<std::uintptr_t>(frame)) + 2 * page;
  std::uintptr_t bottom = top > kLibraryStack ? top - kLibraryStack : 0;
  for (int i = 0; i < WatchTable::used(); ++i) {
    const WatchEntry& e = WatchTable::entry(i);
    if (!e.active || e.page_hi <= bottom || e.page_lo >= top)
      continue;
    for (std::uintptr_t p = std::max(e.page_lo, bottom); p < std::min(e.page_hi, top); p += page)
      if (!visit(p))
        return;
  }
}

}  // namespace

bool MemoryWatch::supported()
{
  return Trampoline::supported();
}

void MemoryWatch::start(Simulation& simulation, const RuntimeParameters& parameters)
{
  simulation_ = &simulation;
  poll_repeats_ = parameters.memory_poll_repeats < 1 ? 1 : parameters.memory_poll_repeats;
  ranks_.clear();
  ranks_.resize(static_cast<std::size_t>(simulation.size()));
  descriptions_.assign(kMaxWatches, std::string());
  active_watches_ = 0;
  lazy_watches_ = 0;
  lazy_armed_ = false;
  lazy_users_ = 0;
  replay_waiters_.clear();
  pollers_.clear();
  last_writes_.assign(kMaxWatches, LastWrite{});
  held_open_.clear();
  enabled_ = parameters.memory_watch && supported();
  status_ = !supported() ? "unsupported" : enabled_ ? "on" : "off";
  bool watchdog = parameters.watchdog > 0 && supported();
  // Also with neither: a program thread's crash or exit, or its MPI call,
  // reaches the simulator thread through the trampoline (SimulatorThread),
  // most often while the rank waits for that thread in pthread_join.
  if (supported())
    Trampoline::initialize(&MemoryWatch::on_trap);
  if (enabled_)
    FaultHandler::install(&MemoryWatch::current_user_rank, &MemoryWatch::owes_time, &MemoryWatch::current_rank_clock);
  if (watchdog)
    Watchdog::start(simulation, parameters.watchdog, enabled_ ? parameters.memory_watch_arm : 0);
  started_ = true;
}

void MemoryWatch::stop()
{
  if (!started_)
    return;
  Watchdog::stop();
  WatchTable::remove_all();
  FaultHandler::uninstall();
  started_ = false;
  enabled_ = false;
  simulation_ = nullptr;
}

int MemoryWatch::watch(const void* address, std::size_t bytes, std::string description)
{
  if (!enabled_ || !address || bytes == 0)
    return -1;
  int id = WatchTable::add(reinterpret_cast<std::uintptr_t>(address), bytes);
  if (id >= 0) {
    descriptions_[static_cast<std::size_t>(id)] = std::move(description);
    ++active_watches_;
  }
  return id;
}

int MemoryWatch::guard(int owner, const void* address, std::size_t bytes, bool reads_allowed)
{
  if (!enabled_ || !address || bytes == 0)
    return -1;
  int id = WatchTable::add_guard(reinterpret_cast<std::uintptr_t>(address), bytes, owner, reads_allowed);
  if (id >= 0) {
    descriptions_[static_cast<std::size_t>(id)] = "buffer of a pending operation";
    ++active_watches_;
  }
  return id;
}

bool MemoryWatch::resize_guard(int watch, const void* address, std::size_t bytes)
{
  if (!enabled_ || watch < 0 || watch >= kMaxWatches || !address)
    return false;
  return WatchTable::resize_guard(watch, reinterpret_cast<std::uintptr_t>(address), bytes);
}

void MemoryWatch::set_guard_listener(const void* client, std::function<void(const GuardAccess&)> listener)
{
  auto same = [client](const auto& entry) { return entry.first == client; };
  guard_listeners_.erase(std::remove_if(guard_listeners_.begin(), guard_listeners_.end(), same),
                         guard_listeners_.end());
  if (listener)
    guard_listeners_.emplace_back(client, std::move(listener));
}

bool MemoryWatch::protects(int watch) const
{
  if (watch < 0 || watch >= WatchTable::used())
    return false;
  const WatchEntry& e = WatchTable::entry(watch);
  return e.active && !e.lazy && e.owner < 0;
}

int MemoryWatch::watch_lazily(const void* address, std::size_t bytes, std::string description)
{
  if (!enabled_ || !address || bytes == 0)
    return -1;
  int id = WatchTable::add_lazy(reinterpret_cast<std::uintptr_t>(address), bytes);
  if (id >= 0) {
    descriptions_[static_cast<std::size_t>(id)] = std::move(description);
    ++lazy_watches_;
    if (lazy_armed_) {
      WatchTable::arm(id);
      ++active_watches_;
    }
  }
  return id;
}

void MemoryWatch::unwatch(int watch)
{
  if (watch < 0 || watch >= kMaxWatches)
    return;
  if (WatchTable::entry(watch).active)
    --active_watches_;
  if (WatchTable::entry(watch).lazy)
    --lazy_watches_;
  WatchTable::remove(watch);
  if (static_cast<std::size_t>(watch) < last_writes_.size())
    last_writes_[static_cast<std::size_t>(watch)] = LastWrite{};
  // Filled only while a trace is recorded: no scan of every rank otherwise
  // (each rank's window free unwatches, O(ranks) each).
  if (trace_store_ || trace_waited_)
    for (RankWatch& rw : ranks_) {
      rw.observed.erase(watch);
      rw.store_events.erase(watch);
    }
  // A rank blocked on it would wait forever: let it re-read.
  WatchTable::entry(watch).generation = WatchTable::entry(watch).generation + 1;
  wake_pollers();
}

int MemoryWatch::unwatch_at(const void* address)
{
  int removed = 0;
  for (int i = 0; i < WatchTable::used(); ++i) {
    const WatchEntry& e = WatchTable::entry(i);
    if ((e.active || e.lazy) && e.base == reinterpret_cast<std::uintptr_t>(address)) {
      unwatch(i);
      ++removed;
    }
  }
  return removed;
}

SharedMemory MemoryWatch::allocate_shared(std::size_t bytes, const std::string& name)
{
  return allocate_shared_memory(bytes, name);
}

void MemoryWatch::free_shared(SharedMemory& memory)
{
  auto lo = reinterpret_cast<std::uintptr_t>(memory.user);
  for (int i = 0; i < WatchTable::used(); ++i) {
    const WatchEntry& e = WatchTable::entry(i);
    if ((e.active || e.lazy) && e.base >= lo && e.base < lo + memory.mapped)
      unwatch(i);
  }
  free_shared_memory(memory);
}

void MemoryWatch::notify_write(const void* address, std::size_t bytes, const WriteCause& cause)
{
  // Every RMA operation's landing calls this: with no active watch there is
  // no generation to bump and nobody polling (a poll needs an active watch),
  // and the table scan was 4% of the profile of MPICH's rma/atomic_get_short_int
  // (34.2 -> 33.1 s of CPU without watches).
  if (active_watches_ == 0)
    return;
  WatchTable::bump_range(reinterpret_cast<std::uintptr_t>(address), bytes);
  note_write(reinterpret_cast<std::uintptr_t>(address), bytes, cause);
  wake_pollers(cause);
}

void MemoryWatch::simulator_access(const void* address, std::size_t bytes, bool write,
                                   const std::function<void()>& access, const WriteCause& cause)
{
  if (!enabled_ || bytes == 0) {
    access();
    return;
  }
  auto lo = WatchTable::page_of(reinterpret_cast<std::uintptr_t>(address));
  auto hi = reinterpret_cast<std::uintptr_t>(address) + bytes;
  std::vector<std::uintptr_t> opened;
  // By watch, not by page: asking page_watched for each of the 512 pages of
  // a 2 MiB access scanned the whole table 512 times (13% of MPICH's
  // rma_contig). Collected, then sorted: a page in several watches is
  // opened once, without a quadratic search over thousands of pages.
  for (int i = 0; i < WatchTable::used() && active_watches_ > 0; ++i) {
    const WatchEntry& e = WatchTable::entry(i);
    if (!e.active || e.page_hi <= lo || e.page_lo >= hi)
      continue;
    for (std::uintptr_t page = std::max(e.page_lo, lo); page < std::min(e.page_hi, hi); page += WatchTable::page_size())
      opened.push_back(page);
  }
  std::sort(opened.begin(), opened.end());
  opened.erase(std::unique(opened.begin(), opened.end()), opened.end());
  opened.erase(std::remove_if(opened.begin(), opened.end(),
                              [&](std::uintptr_t page) {
                                return std::find(held_open_.begin(), held_open_.end(), page) != held_open_.end();
                              }),
               opened.end());
  for (std::uintptr_t page : opened)
    WatchTable::open(page);
  access();
  for (std::uintptr_t page : opened)
    if (WatchTable::page_watched(page))
      WatchTable::protect(page);
  if (write)
    notify_write(address, bytes, cause);
}

void MemoryWatch::enter_mpi(int rank, const void* frame)
{
  if (!enabled_ || rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size())
    return;
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  if (rw.relies_on_lazy)
    release_lazy(rw);
  if (rw.mpi_depth++ > 0 || active_watches_ == 0)
    return;
  for_each_call_stack_page(frame, [&](std::uintptr_t p) {
    if (std::find(rw.held.begin(), rw.held.end(), p) == rw.held.end()) {
      if (std::find(held_open_.begin(), held_open_.end(), p) == held_open_.end())  // open_call_frames
        WatchTable::open(p);
      rw.held.push_back(p);
      held_open_.push_back(p);
    }
    return true;
  });
}

void MemoryWatch::leave_mpi(int rank)
{
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size())
    return;
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  if (rw.mpi_depth == 0 || --rw.mpi_depth > 0)
    return;
  for (std::uintptr_t p : rw.held) {
    held_open_.erase(std::find(held_open_.begin(), held_open_.end(), p));
    if (WatchTable::page_watched(p) && std::find(held_open_.begin(), held_open_.end(), p) == held_open_.end())
      WatchTable::protect(p);
  }
  rw.held.clear();
}

int MemoryWatch::open_call_frames(const void* frame, std::uintptr_t (&pages)[kCallPages])
{
  if (!enabled_ || active_watches_ == 0)
    return 0;
  int count = 0;
  for_each_call_stack_page(frame, [&](std::uintptr_t p) {
    if (std::find(held_open_.begin(), held_open_.end(), p) == held_open_.end()) {
      WatchTable::open(p);
      held_open_.push_back(p);
      pages[count++] = p;
    }
    return count < kCallPages;
  });
  return count;
}

void MemoryWatch::close_call_frames(const std::uintptr_t* pages, int count)
{
  for (int i = 0; i < count; ++i) {
    auto it = std::find(held_open_.begin(), held_open_.end(), pages[i]);
    if (it == held_open_.end())
      continue;  // the run ended meanwhile
    held_open_.erase(it);
    if (enabled_ && WatchTable::page_watched(pages[i]) &&
        std::find(held_open_.begin(), held_open_.end(), pages[i]) == held_open_.end())
      WatchTable::protect(pages[i]);
  }
}

void MemoryWatch::deliver_pending()
{
  if (FaultHandler::take_pending_write())
    wake_pollers();
}

// In the rank that the watchdog found spinning (normal context).
void MemoryWatch::arm_lazy(int rank)
{
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  ++rw.lazy_arms;
  rely_on_lazy(rw);
  if (lazy_armed_)
    return;
  lazy_armed_ = true;
  simulation_->mark_nondeterministic();
  for (int i = 0; i < WatchTable::used(); ++i)
    if (WatchTable::entry(i).lazy && !WatchTable::entry(i).active) {
      WatchTable::arm(i);
      ++active_watches_;
    }
  // Pages that ranks inside MPI hold open stay open until they leave.
  for (std::uintptr_t page : held_open_)
    WatchTable::open(page);
}

void MemoryWatch::rely_on_lazy(RankWatch& rw)
{
  if (rw.relies_on_lazy)
    return;
  rw.relies_on_lazy = true;
  ++lazy_users_;
}

void MemoryWatch::release_lazy(RankWatch& rw)
{
  rw.relies_on_lazy = false;
  if (--lazy_users_ > 0 || !lazy_armed_)
    return;
  lazy_armed_ = false;
  for (int i = 0; i < WatchTable::used(); ++i)
    if (WatchTable::entry(i).lazy && WatchTable::entry(i).active) {
      WatchTable::disarm(i);
      --active_watches_;
    }
}

bool MemoryWatch::lazy_watches_unarmed()
{
  const MemoryWatch& self = instance();
  return self.lazy_watches_ > 0 && !self.lazy_armed_;
}

template <class Ready>
void MemoryWatch::release_blocked(std::set<int>& blocked, Ready ready)
{
  // In rank order, so that runs are deterministic.
  for (auto it = blocked.begin(); it != blocked.end();) {
    int r = *it;
    RankWatch& rw = ranks_[static_cast<std::size_t>(r)];
    if (!ready(rw)) {
      ++it;
      continue;
    }
    // Not polling from now on, although the rank resumes later: a deadlock
    // check meanwhile must see it as runnable.
    rw.polling = false;
    blocked.erase(it);
    simulation_->rank(r).set_state(RankState::UserCode);
    if (listener_)
      listener_(r, false);
    rw.wakeup->release();
    it = blocked.upper_bound(r);  // the listener may have changed the set
  }
}

void MemoryWatch::wake_pollers(const WriteCause& cause)
{
  // The ranks blocked in block() only (every watched write calls this: a
  // scan of every rank was O(ranks) per RMA landing while any watch is
  // active).
  release_blocked(pollers_, [&](RankWatch& rw) {
    if (WatchTable::entry(rw.poll.watch).generation == rw.seen_generation)
      return false;
    rw.woken_by = cause;
    return true;
  });
}

void MemoryWatch::ensure_wakeup(RankWatch& rw)
{
  if (!rw.wakeup)
    rw.wakeup = sg4::Semaphore::create(0);
}

bool MemoryWatch::polling(int rank) const
{
  return rank >= 0 && static_cast<std::size_t>(rank) < ranks_.size() && ranks_[static_cast<std::size_t>(rank)].polling;
}

const PollInfo* MemoryWatch::poll_info(int rank) const
{
  return polling(rank) ? &ranks_[static_cast<std::size_t>(rank)].poll : nullptr;
}

void MemoryWatch::add_rank_to_report(int rank, nlohmann::ordered_json& entry) const
{
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size())
    return;
  const RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  // A rank still polling (deadlock, time limit) has polled until now.
  entry["memory_polling_time"] = rw.polling_time + (rw.polling ? sg4::Engine::get_clock() - rw.poll.since : 0);
  entry["memory_polls"] = rw.polls;
  entry["memory_polls_blocked"] = rw.blocks;
  entry["memory_writes"] = rw.writes;
  entry["memory_lazy_arms"] = rw.lazy_arms;
  if (rw.polling)
    entry["polling_on"] = {{"watch", rw.poll.description}, {"offset", rw.poll.offset}, {"since", rw.poll.since}};
}

// Called by the fault handler (SIGTRAP, on the alternate stack): which rank,
// if any, runs user code now and may be diverted into the trampoline.
int MemoryWatch::current_user_rank()
{
  MemoryWatch& self = instance();
  if (!self.simulation_)
    return -1;
  Rank* rank = self.simulation_->current_rank();
  if (!rank || rank->state() != RankState::UserCode)
    return -1;
  if (self.ranks_[static_cast<std::size_t>(rank->id())].in_trampoline)
    return -1;
  return rank->id();
}

// Called by the fault handler (async-signal-safe: reads one double).
bool MemoryWatch::owes_time(int rank)
{
  const MemoryWatch& self = instance();
  return self.simulation_ && self.simulation_->rank(rank).clock().pending() > 0;
}

// Called by the fault handler (reads the clock's doubles).
double MemoryWatch::current_rank_clock()
{
  const MemoryWatch& self = instance();
  Rank* rank = self.simulation_ ? self.simulation_->current_rank() : nullptr;
  return rank ? rank->clock().now() : -1;
}

std::uint64_t MemoryWatch::activity(int rank)
{
  MemoryWatch& self = instance();
  if (!self.simulation_ || rank < 0 || static_cast<std::size_t>(rank) >= self.ranks_.size())
    return 0;
  return self.simulation_->rank(rank).mpi_calls() + self.ranks_[static_cast<std::size_t>(rank)].traps;
}

// In the rank, in normal context (the trampoline's callee).
void MemoryWatch::on_trap(const TrapRequest& request)
{
  MemoryWatch& self = instance();
  RankWatch& rw = self.ranks_[static_cast<std::size_t>(request.rank)];
  struct InTrampoline {
    bool& flag;
    explicit InTrampoline(bool& f) : flag(f) { flag = true; }
    ~InTrampoline() { flag = false; }  // also when SimGrid kills the rank here
  } guard(rw.in_trampoline);
  ++rw.traps;
  switch (request.kind) {
    case TrapKind::Watchdog: Watchdog::fire(request.rank, request.pc); break;
    case TrapKind::ArmLazyWatches: self.arm_lazy(request.rank); break;
    case TrapKind::Settle: self.simulation_->rank(request.rank).clock().flush(); break;
    case TrapKind::Action: request.action(request.action_data); break;
    case TrapKind::Write: {
      ++rw.writes;
      FaultHandler::take_pending_write();
      // At the writer's clock: its debt was executed first (Settle).
      self.program_stored(request.rank, request.address);
      break;
    }
    case TrapKind::Guard:
      FaultHandler::take_pending_write();
      // The instruction may also have written a watched range.
      if (request.write)
        self.program_stored(request.rank, request.address);
      else
        self.wake_pollers();
      if (WatchTable::entry(request.watch).owner == request.rank)
        for (const auto& [client, listener] : self.guard_listeners_)
          listener(GuardAccess{request.rank, request.watch, request.address, request.pc, request.write});
      // A read of a watched range that a guard also covers (window memory
      // polled while an RMA operation to it is pending) is still a poll.
      if (!request.write) {
        self.deliver_pending();
        self.on_read(request.rank, request.pc, request.address);
      }
      break;
    case TrapKind::Read:
      self.deliver_pending();
      self.on_read(request.rank, request.pc, request.address);
      break;
  }
}

void MemoryWatch::on_read(int rank, std::uintptr_t pc, std::uintptr_t address)
{
  int watch = WatchTable::find(address);
  if (watch < 0)
    return;
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  ++rw.polls;
  // What another rank's MPI call wrote ahead of SimGrid's clock is seen at
  // that rank's clock, not before (docs/design/time.md).
  Rank& reader = simulation_->rank(rank);
  double wait = WatchTable::entry(watch).visible_at - reader.clock().now();
  if (wait > 0) {
    SimulatorEntry entry(reader.libc());  // the rank's user code is suspended in a load
    reader.clock().sleep(wait);
  }
  if (trace_waited_)
    note_read(rank, watch, address);
  std::uint64_t generation = WatchTable::entry(watch).generation;
  std::uint64_t calls = reader.mpi_calls();
  Read* read = nullptr;
  for (Read& r : rw.reads)
    if (r.pc == pc && r.address == address)
      read = &r;
  if (read && read->generation == generation && read->mpi_calls == calls) {
    if (++read->repeats >= poll_repeats_) {
      read->repeats = 0;
      block(rank, watch, pc, address, generation);
    }
    return;
  }
  if (!read) {
    if (rw.reads.size() >= kReadsRemembered)
      rw.reads.erase(rw.reads.begin());
    rw.reads.push_back(Read{});
    read = &rw.reads.back();
  }
  *read = Read{pc, address, generation, calls, 0};
}

void MemoryWatch::block(int rank_id, int watch, std::uintptr_t pc, std::uintptr_t address, std::uint64_t generation)
{
  Rank& rank = simulation_->rank(rank_id);
  SimulatorEntry entry(rank.libc());  // the rank's user code is suspended in a load
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank_id)];
  rank.clock().flush();  // may yield: a write meanwhile makes the poll pointless
  if (WatchTable::entry(watch).generation != generation)
    return;
  rw.polling = true;
  pollers_.insert(rank_id);
  ensure_wakeup(rw);
  rw.seen_generation = generation;
  rw.poll.watch = watch;
  rw.poll.description = descriptions_[static_cast<std::size_t>(watch)];
  rw.poll.offset = address - WatchTable::entry(watch).base;
  rw.poll.since = sg4::Engine::get_clock();
  rw.poll.pc = pc;
  rw.woken_by = WriteCause{};
  ++rw.blocks;
  if (WatchTable::entry(watch).lazy)
    rely_on_lazy(rw);  // disarming now would leave it waiting for writes nobody sees
  rank.set_state(RankState::Polling);
  if (listener_)
    listener_(rank_id, true);  // may end the run: nothing can write any more
  while (rw.polling)
    rw.wakeup->acquire();
  rw.polling_time += sg4::Engine::get_clock() - rw.poll.since;
  if (trace_waited_) {
    trace_waited_(rank_id, rw.poll, rw.woken_by);  // in the poller's program order: its next event
    observed(rank_id, watch, rw.woken_by);
  }
}

void MemoryWatch::program_stored(int rank, std::uintptr_t address)
{
  int watch = WatchTable::find(address);
  WriteCause cause = store_cause(rank, watch);
  note_store(watch, cause);
  wake_pollers(cause);
}

// Recording, reads that did not block (docs/traces.md, Memory waits): a
// rank that reads a flag an RMA operation already set (rma_problem3 under
// thread progress) depended on that operation as much as one that polled
// until it landed; its trace says so, and a replay under a policy that
// lands it later waits there. The same for a value another rank's store
// set (bsend_shared_flag under thread: rank 1 stores the flag while rank 0
// sleeps). A write whose cause is unknown ends the dependency on the
// watch's earlier write.
void MemoryWatch::note_write(std::uintptr_t address, std::size_t bytes, const WriteCause& cause)
{
  if (!trace_waited_)
    return;
  for (int i = 0; i < WatchTable::used(); ++i) {
    const WatchEntry& e = WatchTable::entry(i);
    if (e.active && address < e.base + e.bytes && e.base < address + bytes)
      last_writes_[static_cast<std::size_t>(i)] = LastWrite{cause, address, address + bytes};
  }
}

void MemoryWatch::note_store(int watch, const WriteCause& cause)
{
  if (!trace_waited_ || watch < 0)
    return;
  const WatchEntry& e = WatchTable::entry(watch);
  last_writes_[static_cast<std::size_t>(watch)] = LastWrite{cause, e.base, e.base + e.bytes};
}

void MemoryWatch::note_read(int rank, int watch, std::uintptr_t address)
{
  const LastWrite& last = last_writes_[static_cast<std::size_t>(watch)];
  // A rank's own writes precede its reads in its own order already.
  if (!last.cause.known() || last.cause.rank == rank || address < last.lo || address >= last.hi)
    return;
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  auto seen = rw.observed.find(watch);
  if (seen != rw.observed.end() && seen->second.rank == last.cause.rank && seen->second.event == last.cause.event)
    return;
  PollInfo read;
  read.watch = watch;
  read.description = descriptions_[static_cast<std::size_t>(watch)];
  read.offset = address - WatchTable::entry(watch).base;
  WriteCause cause = last.cause;  // the recorder may run code that writes last_writes_
  observed(rank, watch, cause);
  trace_waited_(rank, read, cause);
}

void MemoryWatch::observed(int rank, int watch, const WriteCause& cause)
{
  if (cause.known())
    ranks_[static_cast<std::size_t>(rank)].observed[watch] = cause;
}

// --- traces ----------------------------------------------------------------------

void MemoryWatch::set_trace_position(int rank, long long event)
{
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size())
    return;
  ranks_[static_cast<std::size_t>(rank)].trace_position = event;
  if (!replay_waiters_.empty())
    wake_replay_waiters();  // a write made at the previous position is made for good
}

WriteCause MemoryWatch::issue_write(int rank)
{
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size())
    return {};
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  if (rw.trace_position < 0)
    return {};  // no trace is recorded or replayed
  rw.pending_writes.insert(rw.trace_position);
  return {rank, rw.trace_position};
}

void MemoryWatch::operation_applied(const WriteCause& cause)
{
  if (!cause.known() || static_cast<std::size_t>(cause.rank) >= ranks_.size())
    return;
  RankWatch& rw = ranks_[static_cast<std::size_t>(cause.rank)];
  auto pending = rw.pending_writes.find(cause.event);
  if (pending != rw.pending_writes.end())
    rw.pending_writes.erase(pending);
  if (cause.event == rw.trace_position)
    rw.write_made_at = cause.event;
  if (!replay_waiters_.empty())
    wake_replay_waiters();
}

void MemoryWatch::set_trace_recorder(std::function<long long(int rank, const std::string& watch)> store,
                                     std::function<void(int, const PollInfo&, const WriteCause&)> waited)
{
  trace_store_ = std::move(store);
  trace_waited_ = std::move(waited);
}

WriteCause MemoryWatch::store_cause(int rank, int watch)
{
  if (!trace_store_ || watch < 0)
    return {};
  // Every store to watched memory may wake a poller, now or when another
  // rank reads the value later (note_read): it gets a `store` event, one per
  // watch between two of the rank's events (a loop storing into a window
  // between two MPI calls is one event; its stores take no simulated time).
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  auto last = rw.store_events.find(watch);
  if (last != rw.store_events.end() && last->second == rw.trace_position && rw.trace_position >= 0)
    return {rank, rw.trace_position};
  long long event = trace_store_(rank, descriptions_[static_cast<std::size_t>(watch)]);
  rw.store_events[watch] = event;
  return {rank, event};
}

void MemoryWatch::replay_store(int rank)
{
  if (rank < 0 || static_cast<std::size_t>(rank) >= ranks_.size())
    return;
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank)];
  rw.write_made_at = rw.trace_position;
  if (!replay_waiters_.empty())
    wake_replay_waiters();
}

bool MemoryWatch::write_made(const WriteCause& cause) const
{
  if (!cause.known() || static_cast<std::size_t>(cause.rank) >= ranks_.size())
    return false;
  const RankWatch& writer = ranks_[static_cast<std::size_t>(cause.rank)];
  if (writer.pending_writes.count(cause.event) > 0)
    return false;
  return writer.trace_position > cause.event || writer.write_made_at == cause.event;
}

void MemoryWatch::replay_wait(int rank_id, const WriteCause& cause, const PollInfo& poll)
{
  Rank& rank = simulation_->rank(rank_id);
  SimulatorEntry entry(rank.libc());
  RankWatch& rw = ranks_[static_cast<std::size_t>(rank_id)];
  // The program's read settled the rank's CPU debt before it ran
  // (FaultHandler: every access to watched bytes does), whether the write
  // was made or it then polled: so does its replay, also when the write is
  // made already (rma_semantics: rank 0 reading its window's counter after
  // a barrier; not settling there moved the next barrier's end by 0.2 us).
  // May yield: the write may be made meanwhile.
  rank.clock().flush();
  if (write_made(cause))
    return;
  // As block(): the rank polls, and is counted so, until the write.
  rw.polling = true;
  ensure_wakeup(rw);
  rw.awaiting = true;
  rw.awaited = cause;
  replay_waiters_.insert(rank_id);
  rw.poll = poll;
  rw.poll.watch = -1;
  rw.poll.since = sg4::Engine::get_clock();
  ++rw.blocks;
  rank.set_state(RankState::Polling);
  if (listener_)
    listener_(rank_id, true);  // may end the run: nothing can make the write any more
  while (rw.polling)
    rw.wakeup->acquire();
  rw.polling_time += sg4::Engine::get_clock() - rw.poll.since;
}

void MemoryWatch::wake_replay_waiters()
{
  // The ranks in replay_wait only (each writer's event calls this).
  release_blocked(replay_waiters_, [&](RankWatch& rw) {
    if (!rw.polling || !rw.awaiting || !write_made(rw.awaited))
      return false;
    rw.awaiting = false;
    return true;
  });
}

}  // namespace progsim::sim::memory
