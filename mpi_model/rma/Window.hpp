// Windows (MPI-4.1 §12.2): the memory a group of processes exposes to RMA,
// and the synchronization state of each member.
//
// A window has one job-wide WindowShared (every member's memory and the
// protocol counters, shared like a real implementation's window object spread
// over the members' libraries) and, per member process, a Window: its handle,
// error handler, name, attributes, info and epoch bookkeeping.
//
// Counters are cumulative over the window's life, so that the order in which
// messages arrive never matters: e.g. the target of a PSCW epoch knows how
// many operations each origin sent in total (carried by the origin's
// MPI_Win_complete message) and waits until it has applied that many.
#pragma once

#include "core/Attributes.hpp"
#include "core/Group.hpp"
#include "core/HandleTable.hpp"
#include "core/Info.hpp"
#include "core/Request.hpp"
#include "rma/AccessConflicts.hpp"
#include "sim/memory/SharedMemory.hpp"

#include <mpi.h>

#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi::rma {

struct Operation;
struct RmaMessage;

enum class Flavor { Create, Allocate, Dynamic, Shared };
const char* to_string(Flavor flavor);
int flavor_constant(Flavor flavor);  // MPI_WIN_FLAVOR_*

// Memory attached to a dynamic window (MPI_Win_attach).
struct AttachedRegion {
  char* base = nullptr;
  std::int64_t size = 0;
  int watch = -1;  // MemoryWatch id: watched lazily (-1: not watched)
};

// Attached memory a replay moved from `from` to `to` (rma/AttachedRegions):
// operations issued before the move are applied where it went.
struct AttachedMove {
  char* from = nullptr;
  std::int64_t size = 0;
  char* to = nullptr;
};

// One member's window memory. Every member's library reads it (one address
// space), as the origin's NIC reads the registration of a real window.
struct WindowPart {
  char* base = nullptr;
  std::int64_t size = 0;
  int disp_unit = 1;
  int watch = -1;  // MemoryWatch id (-1: not watched)
  std::vector<AttachedRegion> attached;  // dynamic windows
  std::vector<AttachedMove> moved;       // ... their moves, in order (replays only)
  sim::memory::SharedMemory memory;  // MPI_Win_allocate: this member's block
};

struct LockRequest {
  int origin = 0;  // local rank
  int type = MPI_LOCK_SHARED;
};

// What each member's MPI library knows, by peer local rank.
struct MemberState {
  explicit MemberState(int n)
      : issued(n), acked(n), fetching(n), posts(n), access_epochs(n), grants(n), grants_used(n), unlock_acks(n),
        unlock_acks_used(n), completes(n), exposure_epochs(n), expected(n), applied(n), arrived(n), applying(n)
  {
  }
  // --- as an origin ---
  std::vector<std::uint64_t> issued;         // operations sent to each target
  std::vector<std::uint64_t> acked;          // ... that the target has applied (remote completion)
  std::vector<std::uint64_t> fetching;       // fetching operations (get...) to each target not replied yet
  std::vector<std::uint64_t> posts;          // MPI_Win_post notifications handled, from each target
  std::vector<std::uint64_t> access_epochs;  // PSCW access epochs opened to each target
  std::vector<std::uint64_t> grants;         // lock grants received from each target
  std::vector<std::uint64_t> grants_used;
  std::vector<std::uint64_t> unlock_acks;
  std::vector<std::uint64_t> unlock_acks_used;
  // Operations not sent yet (waiting for the target's post, or deferred to
  // the closing synchronization with rma-issue=sync), in call order.
  std::deque<std::shared_ptr<Operation>> deferred;
  // --- as a target ---
  std::vector<std::uint64_t> completes;        // MPI_Win_complete notifications handled, from each origin
  std::vector<std::uint64_t> exposure_epochs;  // PSCW exposure epochs opened to each origin
  std::vector<std::uint64_t> expected;         // operations each origin said it sent (with its complete)
  std::vector<std::uint64_t> applied;          // operations applied, from each origin
  // Operations are applied in the order their origin issued them (see
  // RmaEngine::apply_next): those that arrived before their predecessors
  // wait here, by sequence number, per origin.
  std::vector<std::map<std::uint64_t, std::shared_ptr<RmaMessage>>> arrived;
  std::vector<bool> applying;                  // an operation of that origin is in a chunk not run yet
  int exclusive = -1;                          // lock holder (local rank), or -1
  int shared = 0;                              // shared lock holders
  std::deque<LockRequest> lock_queue;          // requests waiting for the lock
};

// The job-wide part of one window.
struct WindowShared {
  int id = 0;  // job-wide number, for names ("window 3")
  Flavor flavor = Flavor::Create;
  GroupPtr group;
  std::vector<WindowPart> parts;      // by local rank
  std::vector<MemberState> members;   // by local rank
  sim::memory::SharedMemory segment;  // MPI_Win_allocate_shared: one block for all
  bool segment_ready = false;
  // The accesses of the current fence epoch, by target (AccessConflicts).
  std::vector<EpochAccesses> fence_accesses;
  // ... of the current PSCW exposure epoch of each target, and the
  // numbers of the MPI_Win_post calls of each target (its `post_count`-th)
  // that named each origin, by (target, origin) local ranks, so that an
  // origin's access epoch finds the post it matches.
  std::vector<EpochAccesses> pscw_accesses;
  std::vector<std::uint64_t> post_count;
  std::map<std::pair<int, int>, std::vector<std::uint64_t>> posts_naming;
  // ... made under shared locks and not completed at the target yet (by an
  // unlock or a flush of their origin), by target.
  std::vector<EpochAccesses> lock_accesses;
  int registered = 0;  // members that called the creating procedure
  int released = 0;    // members that freed it
  bool type_mismatch_reported = false;  // one type-matching error per window (OperationTypes.cpp)

  int size() const { return group->size(); }
  int world_rank(int local) const { return group->world_rank(local); }
  std::string name() const { return "window " + std::to_string(id); }
};

// One member process's window object.
struct Window {
  MPI_Win handle = MPI_WIN_NULL;
  std::shared_ptr<WindowShared> shared;
  int me = 0;                    // local rank in the window's group
  MPI_Comm comm = MPI_COMM_NULL; // internal communicator of the members (collective parts)
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  std::string name;
  AttributeSet attributes;
  Info hints;
  // Values the predefined attributes point to (MPI-4.1 §12.2.6).
  MPI_Aint size_attribute = 0;
  int disp_unit_attribute = 1;
  int flavor_attribute = MPI_WIN_FLAVOR_CREATE;
  int model_attribute = MPI_WIN_UNIFIED;

  // Epochs (MPI-4.1 §12.5), for MPI_ERR_RMA_SYNC checks and the protocols.
  bool fence_epoch = false;        // between fences (not after MPI_MODE_NOSUCCEED)
  // MPI_Win_fence calls so far: the number of the current fence epoch, the
  // same at every member (fences are collective).
  std::uint64_t fences = 0;
  // Operations were issued in the current fence epoch: it is an access epoch
  // (MPI-4.1 §12.5.1), no other kind may open until the next fence.
  bool fence_operations = false;
  GroupPtr access_group;           // PSCW access epoch (MPI_Win_start .. complete)
  bool access_nocheck = false;
  GroupPtr exposure_group;         // PSCW exposure epoch (MPI_Win_post .. wait/test)
  std::vector<int> locks;          // by target: 0, or MPI_LOCK_SHARED / MPI_LOCK_EXCLUSIVE
  std::vector<bool> lock_nocheck;  // by target: locked with MPI_MODE_NOCHECK (no protocol)
  bool lock_all = false;
  // --check buffers (diagnosis/PendingBuffers): operations whose buffers are
  // guarded until they complete at the origin, with their target (request-
  // based ones: the program's request; others: one of their own).
  std::vector<std::pair<int, RequestPtr>> guarded_operations;

  MemberState& state() { return shared->members[static_cast<size_t>(me)]; }
  // Whether an operation to `target` (local rank) is inside an epoch.
  bool in_epoch(int target) const;
  // Whether an operation to `target` belongs to the fence epoch (no lock or
  // PSCW access epoch covers the target).
  bool in_fence_epoch(int target) const;
  bool in_any_epoch() const;
};

// The windows of one process: handles 0x60000000 | index, index >= 1.
class WindowTable {
public:
  Window* find(MPI_Win handle);
  Window& add(std::unique_ptr<Window> window);
  void remove(MPI_Win handle);
  std::size_t live() const { return table_.live(); }
  std::vector<const Window*> live_windows() const;  // by handle, ascending

private:
  HandleTable<std::unique_ptr<Window>> table_{1};  // index 0: MPI_WIN_NULL
};

}  // namespace progsim::mpi::rma
