#include "progress/ProgressChunk.hpp"

#include "sim/Diagnostics.hpp"

namespace progsim::mpi {

const char* to_string(ChunkStep step)
{
  switch (step) {
    case ChunkStep::EagerOnMessageTarget: return "eager.on_message_target";
    case ChunkStep::RtsOnRtsTarget: return "rndv.on_rts_target";
    case ChunkStep::CtsOnCtsOrigin: return "rndv.on_cts_origin";
    case ChunkStep::AckOnAckOrigin: return "sync.on_ack_origin";
    case ChunkStep::FinOnFinOrigin: return "rndv.on_fin_origin";
    case ChunkStep::CancelWithdrawTarget: return "cancel.on_withdraw_target";
    case ChunkStep::CancelReplyOrigin: return "cancel.on_reply_origin";
    case ChunkStep::CollNextRound: return "coll.next_round";
    case ChunkStep::RmaOpTarget: return "rma.on_op_target";
    case ChunkStep::RmaPostOrigin: return "rma.on_post_origin";
    case ChunkStep::RmaCompleteTarget: return "rma.on_complete_target";
    case ChunkStep::RmaLockTarget: return "rma.on_lock_target";
    case ChunkStep::RmaUnlockTarget: return "rma.on_unlock_target";
  }
  return "?";
}

std::string ProgressChunk::describe() const
{
  if (step == ChunkStep::CollNextRound)
    return std::string(to_string(step)) + "(" + (call ? call : "?") + ", rank " + std::to_string(owner) + ", round " +
           std::to_string(round) + " of " + std::to_string(rounds) + ", enabled at " + sim::format_time(enabled_at) +
           ")";
  bool origin_side = step == ChunkStep::CtsOnCtsOrigin || step == ChunkStep::AckOnAckOrigin ||
                     step == ChunkStep::FinOnFinOrigin || step == ChunkStep::CancelReplyOrigin;
  int from = origin_side ? owner : peer;
  int to = origin_side ? peer : owner;
  return std::string(to_string(step)) + "(message " + std::to_string(message_id) + ", rank " + std::to_string(from) +
         " -> " + std::to_string(to) + ", " + std::to_string(bytes) + " B, enabled at " + sim::format_time(enabled_at) +
         ")";
}

}  // namespace progsim::mpi
