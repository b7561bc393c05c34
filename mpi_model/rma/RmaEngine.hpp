// The one-sided communication engine (MPI-4.1 chapter 12) of all ranks:
// windows, the operations, and the synchronization protocols.
//
// Work of the MPI call itself (sending an operation, a post, a lock request)
// runs directly. Work a rank's library must do when a message arrives is a
// progress chunk of that rank, run by whoever the policy says (weak: the
// rank inside a progressing MPI call; thread; NIC; ideal: at once):
//   rma.on_op_target        apply a put/get/accumulate to the window memory and reply
//   rma.on_post_origin      PSCW: the target posted; deferred operations to it may go
//   rma.on_complete_target  PSCW: the origin completed its access epoch
//   rma.on_lock_target      grant a lock, or queue the request
//   rma.on_unlock_target    release a lock, grant the requests it blocked
// Replies, grants and acknowledgements are completions written by the
// origin's NIC (like RDMA completions): they need no chunk.
//
// State machines: see docs/design/rma.md.
#pragma once

#include "ModelParameters.hpp"
#include "progress/ProgressEngine.hpp"
#include "rma/LocalAccessConflicts.hpp"
#include "rma/Operation.hpp"
#include "rma/Window.hpp"
#include "transport/Fabric.hpp"

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi::rma {

// What a rank blocked in an RMA synchronization waits for (deadlock explanations).
struct BlockedRma {
  enum What { Posts, Completes, Acks, Grant, UnlockAck } what = Acks;
  std::shared_ptr<WindowShared> window;
  int me = 0;               // local rank
  std::vector<int> peers;   // local ranks it waits for
  bool freedom = false;     // a wait the standard lets an implementation skip (blocking MPI_Win_start)
};

class RmaEngine {
public:
  RmaEngine(ProgressEngine& progress, Fabric& fabric, const ModelParameters& parameters, int world_size);

  WindowTable& windows(int world_rank) { return tables_[static_cast<size_t>(world_rank)]; }
  // Targets' loads and stores against other processes' operations.
  LocalAccessConflicts& local_accesses() { return local_accesses_; }

  // --- windows ---
  // The job-wide object of the window the members of `group` create on a
  // fresh internal context: the first member to call makes it.
  std::shared_ptr<WindowShared> join(int context, const GroupPtr& group, Flavor flavor);

  // --- operations ---
  std::uint64_t next_operation_id() { return ++operations_; }
  // Sends the operation now, or keeps it until its epoch lets it go (the
  // target's post not seen yet; rma-issue=sync).
  void submit(Window& w, const std::shared_ptr<Operation>& op);
  // Sends the deferred operations that may go; `closing`: the epoch is
  // being closed, so deferral to the closing synchronization ends.
  void release_deferred(const std::shared_ptr<WindowShared>& w, int me, bool closing);
  bool acked(const Window& w, int target) const;
  bool all_acked(const Window& w) const;
  // Whether the fetched data of every operation to `target` arrived (local completion).
  bool fetched(const Window& w, int target) const;

  // --- PSCW (MPI-4.1 §12.5.2) ---
  void post(Window& w, const Group& origins, bool nocheck);
  void start(Window& w, const Group& targets);
  // Whether the target's post for the current access epoch was handled.
  bool posted(const Window& w, int target) const;
  void complete(Window& w);
  bool exposure_done(Window& w) const;
  void end_exposure(Window& w);

  // --- passive target (MPI-4.1 §12.5.3) ---
  void request_lock(Window& w, int target, int type);
  // Consumes one grant from `target` if there is one.
  bool take_grant(Window& w, int target);
  void request_unlock(Window& w, int target);
  bool take_unlock_ack(Window& w, int target);

  // --- blocking, with what the rank waits for ---
  // Blocks the calling rank (progressing) until done(); `describe` for reports.
  void block(int world_rank, BlockedRma what, const std::function<bool()>& done, const std::string& describe);
  const BlockedRma* blocked(int world_rank) const;

  void on_arrival(Packet&& packet);

  // MPI_Win_test calls, per rank (report).
  std::uint64_t& win_tests(int world_rank) { return win_tests_[static_cast<size_t>(world_rank)]; }
  std::uint64_t win_tests(int world_rank) const { return win_tests_[static_cast<size_t>(world_rank)]; }
  // The chunk queued at world rank `owner` for a message from `peer`, described ("" if none).
  std::string queued_chunk(int owner, ChunkStep step, int peer) const;

private:
  void send(const std::shared_ptr<WindowShared>& w, MessageKind kind, int from, int to,
            std::shared_ptr<Operation> op = nullptr, std::uint64_t sent = 0, int lock_type = MPI_LOCK_SHARED);
  void send_operation(const std::shared_ptr<WindowShared>& w, const std::shared_ptr<Operation>& op);
  bool may_send(const WindowShared& w, const Operation& op) const;
  // Target side: enables the chunk that applies the next operation of
  // `origin` in issue order, if it arrived and none of its is pending.
  void apply_next(const std::shared_ptr<WindowShared>& w, int target, int origin);
  // Target side: grants the queued lock requests that are compatible.
  void grant_waiting(const std::shared_ptr<WindowShared>& w, int target);
  void wake(const WindowShared& w, int local);

  ProgressEngine& progress_;
  Fabric& fabric_;
  const ModelParameters& parameters_;
  std::vector<WindowTable> tables_;
  std::map<std::pair<int, int>, std::shared_ptr<WindowShared>> joining_;  // (context, lowest world rank)
  int next_window_id_ = 0;
  std::uint64_t operations_ = 0;
  std::vector<std::uint64_t> win_tests_;
  std::vector<std::unique_ptr<BlockedRma>> blocked_;
  LocalAccessConflicts local_accesses_;
};

}  // namespace progsim::mpi::rma
