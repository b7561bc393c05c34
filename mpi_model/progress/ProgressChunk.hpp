// A progress chunk (MPI-4.1 §2.9, "decoupled MPI activity" in MPI-5.0 §3.9):
// one protocol step that must run in a rank's MPI library after the call
// that started the operation returned, e.g. answering an RTS with a CTS.
// Which agent runs it (the rank inside MPI, a progress thread, the NIC, or
// nobody-needed in the ideal reference) is the progress policy's decision.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

namespace progsim::mpi {

// The protocol steps that are decoupled activities. Handlers are named
// on_<step>_<side>: "target" is the receiving rank, "origin" the sender.
enum class ChunkStep {
  EagerOnMessageTarget,  // match an arrived eager message (or queue it as unexpected)
  RtsOnRtsTarget,        // match an RTS; answer CTS (push) or read the data (pull)
  CtsOnCtsOrigin,        // push: send the data the target is ready for
  AckOnAckOrigin,        // eager-sync: the target matched; complete the send
  FinOnFinOrigin,        // pull: the target read the data; complete the send
  CancelWithdrawTarget,  // MPI_Cancel of a send: take the withdrawn message (eager data or RTS) out of matching
  CancelReplyOrigin,     // MPI_Cancel of a send: the target NIC answered; the send is cancelled or goes on
  CollNextRound,         // a collective's round completed: run its local steps, post the next round
  // One-sided communication (rma/): every step handles a message from `peer`.
  RmaOpTarget,           // apply a put/get/accumulate to the window memory; reply to the origin
  RmaPostOrigin,         // PSCW: the target posted (MPI_Win_post); the access epoch may go on
  RmaCompleteTarget,     // PSCW: the origin closed its access epoch (MPI_Win_complete)
  RmaLockTarget,         // passive target: grant the lock or queue the request
  RmaUnlockTarget,       // passive target: release the lock, grant waiting requests
};

// Who runs a chunk: the rank itself inside MPI, or the policy's own agent
// (its ExecutorDescription names it).
enum class Executor { Rank, Agent };

const char* to_string(ChunkStep step);

struct ProgressChunk {
  std::uint64_t id = 0;
  ChunkStep step = ChunkStep::EagerOnMessageTarget;
  int owner = 0;  // the rank whose MPI library must run it
  int peer = 0;   // the other rank of the message
  std::uint64_t message_id = 0;
  std::size_t bytes = 0;
  double enabled_at = 0;  // simulated time it became executable
  // CollNextRound: the collective call and the round it starts (1-based).
  const char* call = nullptr;
  int round = 0, rounds = 0;
  std::function<void()> action;

  // "rndv.on_cts_origin(msg 3, rank 0 -> 1, 8388608 B, enabled at t=...)",
  // "coll.next_round(MPI_Iallreduce, rank 3, round 2 of 8, enabled at t=...)"
  std::string describe() const;
};

}  // namespace progsim::mpi
