// Busy-waiting on memory: the simulator's view of watched memory.
//
// Programs synchronize through plain loads and stores (`while (*flag != 222);`
// on a shared window, or on a variable exposed with MPI_Win_create). A rank
// spinning like that never calls into the simulator, so nothing else could
// run. Watched ranges are page-protected (WatchTable, FaultHandler); each
// access from user code reaches this class through the Trampoline:
//
//  - a write wakes the ranks polling watched memory;
//  - a read that an instruction repeats, with the value unchanged since its
//    last read and no MPI call between (memory-poll-repeats times), is a poll:
//    the rank blocks until the next write to that watch. Simulated time
//    passes meanwhile, other ranks and progress agents run, and the time is
//    reported as the rank's memory polling time. A blocked poller counts as
//    waiting for deadlock detection (poll listener).
//
// Simulator code that writes watched memory (an RMA put through the
// writable view of SharedMemory) calls notify_write().
#pragma once

#include "sim/memory/SharedMemory.hpp"
#include "sim/memory/WriteCause.hpp"

#include <nlohmann/json.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace progsim::sim {
class Simulation;
struct RuntimeParameters;
}  // namespace progsim::sim

namespace progsim::sim::memory {

struct TrapRequest;

// What a polling rank waits for (deadlock explanations).
struct PollInfo {
  int watch = -1;
  std::string description;  // as given to watch(): "window 3 (rank 0's part)", "flag"
  std::size_t offset = 0;   // of the polled address in the watched range
  double since = 0;         // simulated time the rank started to block
  std::uintptr_t pc = 0;    // the polling load in the program
};

class MemoryWatch {
public:
  // Inline: every MPI call asks for it several times.
  static MemoryWatch& instance()
  {
    static MemoryWatch watch;
    return watch;
  }

  // x86-64 Linux with xsave; elsewhere watching is unsupported.
  static bool supported();
  // Whether watch() really watches: supported and memory-watch=yes.
  bool enabled() const { return enabled_; }
  const char* status() const { return status_; }  // "on", "off" or "unsupported" (of the last run)

  // Run life cycle (Simulation::run): the handlers go in after SimGrid's
  // engine and progsim's CrashHandler, to which unexplained faults chain.
  void start(Simulation& simulation, const RuntimeParameters& parameters);
  void stop();

  // Watches [address, address + bytes) of any memory (heap, globals, stack,
  // SharedMemory's user view). Returns a watch id >= 0, or -1 when watching
  // is off or the table is full. `description` names it in reports.
  int watch(const void* address, std::size_t bytes, std::string description);
  // Registers a range that is watched only while needed (lazy watching):
  // memory whose every access would trap (large buffers, heap pages shared
  // with the simulator's data) but that a program may still poll. When the
  // watchdog sees a rank run user code for memory-watch-arm seconds of host
  // CPU without an MPI call or a trap, it arms every lazy watch; a rank that
  // spins on one then traps and blocks as a poller. They are disarmed when
  // every rank that relied on them (the one that was spinning, the ranks
  // that polled them) calls MPI again. Such a run is marked
  // non-deterministic: how many iterations a loop ran before the arming
  // depends on host time (simulated times do not).
  int watch_lazily(const void* address, std::size_t bytes, std::string description);
  void unwatch(int watch);
  // Guards [address, address + bytes), the buffer of a pending operation of
  // `owner` (--check buffers): the pages are protected against writes, and
  // against reads too unless `reads_allowed`; an access of the program's
  // code inside the range is told to the guard listener, in the rank, after
  // the access was made. Accesses outside the range on the same pages, and
  // the simulator's own, are let through. Returns the guard's watch id
  // (removed with unwatch), or -1 when watching is off or the table full.
  int guard(int owner, const void* address, std::size_t bytes, bool reads_allowed);
  // Moves guard `watch` to [address, address + bytes) (a partitioned
  // request's guarded partitions changed); false if it is not a guard.
  bool resize_guard(int watch, const void* address, std::size_t bytes);
  struct GuardAccess {
    int rank = -1;
    int watch = -1;
    std::uintptr_t address = 0;
    std::uintptr_t pc = 0;  // the accessing instruction
    bool write = false;
  };
  // Each client that guards memory has its own listener, keyed by `client`
  // (its address); every listener hears every guard access and keeps to
  // the watch ids it made. A null listener removes the client's.
  void set_guard_listener(const void* client, std::function<void(const GuardAccess&)> listener);
  // Whether `watch` is an active watch that is not a guard: its pages trap
  // on every access already (a window part watched for polling).
  bool protects(int watch) const;
  // Removes the watches that start at `address`; returns how many.
  int unwatch_at(const void* address);

  // Memory for MPI_Win_allocate_shared: watch its user view as needed.
  SharedMemory allocate_shared(std::size_t bytes, const std::string& name);
  void free_shared(SharedMemory& memory);  // also removes watches inside it

  // The simulator wrote [address, address + bytes) of watched memory (user
  // view addresses): wakes the ranks polling it. Call from any actor.
  void notify_write(const void* address, std::size_t bytes, const WriteCause& cause = {});
  // Runs `access` (simulator code reading or writing [address, address +
  // bytes) of user memory, e.g. an RMA operation on MPI_Win_create memory)
  // with the watched pages of that range opened, so that it does not trap
  // per instruction; re-protects them and, for a write, wakes the pollers.
  // Ranks are coroutines of one thread: no rank runs while they are open.
  void simulator_access(const void* address, std::size_t bytes, bool write, const std::function<void()>& access,
                        const WriteCause& cause = {});
  // A rank enters (leaves) the MPI library; `frame` is a frame address of
  // the library's entry. Watched pages holding the rank's stack near it
  // (a watched local variable of the caller, e.g. MPI_Win_create memory on
  // the stack, shares its page with the library's frames) are opened while
  // the rank is inside MPI, or every stack access of the library would trap.
  // Nothing polls them meanwhile: the rank is inside MPI.
  void enter_mpi(int rank, const void* frame);
  void leave_mpi(int rank);
  // The same for the whole MPI procedure (CallFrames, the first member of
  // its Binding): opens the watched pages near `frame` that are not open,
  // into `pages`, before the rank lookup and the call's bookkeeping run, and
  // closes them after leave_mpi and the destructors ran; with enter_mpi
  // alone each of their stack accesses trapped (about 100 per call).
  static constexpr int kCallPages = 4;
  int open_call_frames(const void* frame, std::uintptr_t (&pages)[kCallPages]);
  void close_call_frames(const std::uintptr_t* pages, int count);
  bool watching_any() const { return active_watches_ > 0; }
  // Nothing is or may become watched: no page can fault, no write is pending.
  bool idle() const { return !enabled_ || (active_watches_ == 0 && lazy_watches_ == 0); }
  // Wakes pollers for writes trapped in simulator code (e.g. a receive into
  // watched memory); called when a rank leaves MPI and after each chunk.
  void deliver_pending();

  // Deadlock detection: told when a rank starts (true) or stops polling.
  void set_poll_listener(std::function<void(int rank, bool polling)> listener) { listener_ = std::move(listener); }
  bool polling(int rank) const;
  // What `rank` polls, or nullptr.
  const PollInfo* poll_info(int rank) const;

  // --- traces (issue 19): record and replay waits on watched memory ---
  // The index of the event of `rank`'s trace being recorded (its last one
  // written) or replayed: an RMA operation issued now is that event's write.
  // In a replay, a rank waiting for a write of `rank` may be woken.
  void set_trace_position(int rank, long long event);
  // The cause of the write an RMA operation `rank` issues now; in a replay
  // the operation counts as pending until operation_applied().
  WriteCause issue_write(int rank);
  // The operation of `cause` was applied at its target (any kind).
  void operation_applied(const WriteCause& cause);
  // Recording: `store(rank, watch)` is called for a store of the rank's
  // program to watched memory (the watch's description), at most once per
  // watch between two of its events, and returns the index of the `store`
  // event it wrote for it; `waited(rank, poll, cause)` when a rank stops
  // blocking on a poll, woken by `cause`, or reads a value another rank's
  // write `cause` set. Empty functions: not recording.
  void set_trace_recorder(std::function<long long(int rank, const std::string& watch)> store,
                          std::function<void(int rank, const PollInfo& poll, const WriteCause& cause)> waited);
  // Replay: the rank's `store` event (at its current position) is made:
  // ranks waiting for it wake.
  void replay_store(int rank);
  // Replay: blocks `rank` as a poller of `poll` (description, offset) until
  // the write of `cause` is made (a store event performed, an operation
  // applied), at once if it was; an unknown cause blocks for ever, which
  // deadlock detection ends. Counted as the run counts a blocked poll.
  void replay_wait(int rank, const WriteCause& cause, const PollInfo& poll);
  // Whether the write of `cause` was made in this replay.
  bool write_made(const WriteCause& cause) const;

  void add_rank_to_report(int rank, nlohmann::ordered_json& entry) const;

  // --- for the signal handlers ---
  // The rank running user code now (not the simulator, not already in the
  // trampoline), or -1.
  static int current_user_rank();
  // Whether `rank` has CPU debt to execute before touching watched memory.
  static bool owes_time(int rank);
  static double current_rank_clock();
  // Grows whenever `rank` calls MPI or traps on watched memory (watchdog).
  static std::uint64_t activity(int rank);
  // Some lazy watch is registered and not armed (watchdog).
  static bool lazy_watches_unarmed();

private:
  struct Read {
    std::uintptr_t pc = 0;
    std::uintptr_t address = 0;
    std::uint64_t generation = 0;
    std::uint64_t mpi_calls = 0;
    long long repeats = 0;
  };
  struct RankWatch {
    bool in_trampoline = false;
    std::uint64_t traps = 0;
    bool polling = false;
    std::uint64_t seen_generation = 0;
    PollInfo poll;
    std::uint64_t polls = 0;   // trapped reads of watched ranges
    std::uint64_t writes = 0;  // trapped writes to watched ranges
    std::uint64_t blocks = 0;  // polls that blocked
    double polling_time = 0;   // simulated seconds blocked polling
    std::vector<Read> reads;   // the latest read of each (instruction, address)
    // Made when the rank first blocks (ensure_wakeup): most ranks never do,
    // and a SimGrid semaphore costs ~700 bytes (its queue's std::deque), per
    // rank of a million-rank replay (issue 19).
    simgrid::s4u::SemaphorePtr wakeup;
    int mpi_depth = 0;                 // nested MPI calls (callbacks calling MPI)
    std::vector<std::uintptr_t> held;  // watched pages opened while inside MPI
    bool relies_on_lazy = false;       // spun until the lazy watches were armed, or polls one
    std::uint64_t lazy_arms = 0;       // times its spinning armed the lazy watches
    // Traces: the write that woke it last; its trace position; in a replay,
    // the event of its last write made at that position, its operations
    // issued and not applied yet (by event), and the write it waits for.
    WriteCause woken_by;
    long long trace_position = -1;
    long long write_made_at = -1;
    std::multiset<long long> pending_writes;
    bool awaiting = false;
    WriteCause awaited;
    // Recording: by watch, the write this rank's last `memory_wait` named
    // (a read that observes another write of that watch gets one).
    std::map<int, WriteCause> observed;
    // Recording: by watch, the index of the rank's latest `store` event.
    std::map<int, long long> store_events;
  };
  // Recording: the latest write to each watch whose cause is known, and
  // the bytes it wrote, which a later read may observe.
  struct LastWrite {
    WriteCause cause;
    std::uintptr_t lo = 0, hi = 0;
  };

  static void ensure_wakeup(RankWatch& rw);
  // Resumes the ranks of `blocked` (block()'s or replay_wait's) for which
  // ready(their RankWatch) holds, taking them out of the set.
  template <class Ready>
  void release_blocked(std::set<int>& blocked, Ready ready);
  static void on_trap(const TrapRequest& request);
  void on_read(int rank, std::uintptr_t pc, std::uintptr_t address);
  void block(int rank, int watch, std::uintptr_t pc, std::uintptr_t address, std::uint64_t generation);
  void wake_pollers(const WriteCause& cause = {});
  // A store of `rank`'s program at `address` (a trapped write): its cause
  // noted for recording, and the pollers woken.
  void program_stored(int rank, std::uintptr_t address);
  // Recording: the cause of a store of `rank` to `watch` (its `store`
  // event, written by the recorder unless one for that watch is its last
  // event); unknown when not recording.
  WriteCause store_cause(int rank, int watch);
  void wake_replay_waiters();
  void note_write(std::uintptr_t address, std::size_t bytes, const WriteCause& cause);
  void note_store(int watch, const WriteCause& cause);
  // A read of `rank` at `address` of `watch` that observes a write it did
  // not name yet: a `memory_wait` that did not block (the write was made).
  void note_read(int rank, int watch, std::uintptr_t address);
  void observed(int rank, int watch, const WriteCause& cause);
  void arm_lazy(int rank);
  void rely_on_lazy(RankWatch& rw);
  void release_lazy(RankWatch& rw);

  Simulation* simulation_ = nullptr;
  bool enabled_ = false;
  const char* status_ = "off";
  bool started_ = false;
  long long poll_repeats_ = 1;
  std::vector<std::string> descriptions_;  // by watch id
  std::vector<RankWatch> ranks_;
  int active_watches_ = 0;
  int lazy_watches_ = 0;  // registered, armed or not
  bool lazy_armed_ = false;
  int lazy_users_ = 0;    // ranks with relies_on_lazy
  std::vector<std::uintptr_t> held_open_;  // pages some rank holds open (enter_mpi), with repeats
  std::function<void(int, bool)> listener_;
  std::vector<std::pair<const void*, std::function<void(const GuardAccess&)>>> guard_listeners_;
  std::function<long long(int, const std::string&)> trace_store_;
  std::function<void(int, const PollInfo&, const WriteCause&)> trace_waited_;
  std::set<int> replay_waiters_;  // ranks blocked in replay_wait (woken: taken out)
  std::set<int> pollers_;         // ranks blocked in block() (woken: taken out)
  std::vector<LastWrite> last_writes_;  // by watch id, while recording
};

}  // namespace progsim::sim::memory
