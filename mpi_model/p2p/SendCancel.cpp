// MPI_Cancel of a send (MPI-4.1 §3.8.4) and what it asks of MPI_Finalize.
//
// "Either the cancellation succeeds, or the communication succeeds, but not
// both": whether a send can still be cancelled depends on whether its
// target matched the message, which only the target knows. And "if a
// communication is marked for cancellation, then an MPI_WAIT call for that
// communication is guaranteed to return, irrespective of the activities of
// other processes": the sender's MPI_Wait must not need the target's CPU.
//
// Real libraries resolve this differently: MPICH ch3 sends a cancel request
// that the target's progress engine answers (so the sender's wait needs the
// target inside MPI: MPI_Cancel is only "weak local", as the MPI Forum's
// semantic-terms slides put it); Open MPI and MPICH ch4 never cancel sends
// (Example 8.9 of MPI-3.1, MPI-4.1 Example 11.6, then hangs). progsim models
// a NIC-resolved cancel, as its pull rendezvous reads data without the
// origin's CPU: the sender asks the target's NIC to withdraw the message
// (WITHDRAW); the NIC decides with one atomic test-and-set of the message's
// match word (the one the target's matching sets when it matches the
// message), and answers (WITHDRAW-REPLY). The decision needs only the
// network, so MPI_Wait after MPI_Cancel returns under every progress policy.
// What needs the target's library is learning the outcome: taking the
// withdrawn eager data or RTS out of its matching queues is a progress chunk
// (cancel.on_withdraw_target) that runs as the policy allows; under weak
// progress only inside an MPI call of the target. Until it runs, matching
// skips the withdrawn message (is_withdrawn), as matching hardware that reads
// the match word would. The sender applies the answer in its own chunk
// (cancel.on_reply_origin): the send completes cancelled, or goes on and
// completes normally (it was matched: cancelled = 0).
//
// Finalization (MPI-4.1 §11.2.2, advice to implementors of the example
// above): "An implementation may need to delay the return from MPI_FINALIZE
// until all potential future message cancellations have been processed. One
// possible solution is to place a barrier inside MPI_FINALIZE." progsim's
// MPI_Finalize waits only for the senders that may still cancel a send to
// the rank (it holds the request, the message is neither matched nor
// withdrawn, the sender has not entered MPI_Finalize), so programs that
// cancel nothing keep their timing, and the target's finalization runs the
// cancellation step of Example 8.9 under weak progress.

#include "p2p/PointToPoint.hpp"

#include <algorithm>

namespace progsim::mpi {

int PointToPoint::start_buffered(const RequestPtr& send)
{
  auto message = std::make_shared<Request>(*send);
  message->persistent = false;
  message->handle = MPI_REQUEST_NULL;
  if (message->rare().buffered_message)
    message->writable_rare().buffered_message = nullptr;
  if (int err = start(message))
    return err;
  send->state = RequestState::Complete;
  send->status_error = MPI_SUCCESS;
  send->cancelled = false;
  send->cancel_pending = false;
  send->message_id = message->message_id;
  send->writable_rare().buffered_message = message;
  if (send->message_id != 0)
    track_cancellable(send);
  return MPI_SUCCESS;
}

void PointToPoint::cancel_send(const RequestPtr& send)
{
  const RequestPtr& message = send->rare().buffered_message ? send->rare().buffered_message : send;
  // MPI_PROC_NULL sends no message; a second MPI_Cancel adds nothing.
  if (send->message_id == 0 || send->cancel_pending || message->withdrawn_message == send->message_id)
    return;
  send->cancel_pending = true;
  Packet withdraw = control_packet(PacketKind::Withdraw, send->owner, send->peer_world);
  withdraw.message_id = send->message_id;
  withdraw.origin = message;
  withdraw.target = send;
  send_packet(std::move(withdraw));
}

void PointToPoint::withdraw_at_target_nic(const Packet& withdraw)
{
  // The target NIC's atomic on the match word: matched first, or withdrawn
  // now (then no receive, probe or arrival matches it any more).
  Request& message = *withdraw.origin;
  bool withdrawn = message.matched_message != withdraw.message_id;
  if (withdrawn) {
    message.withdrawn_message = withdraw.message_id;
    unreceived_.settled(withdraw.message_id);
  }
  Packet reply = control_packet(PacketKind::WithdrawReply, withdraw.dst, withdraw.src);
  reply.message_id = withdraw.message_id;
  reply.origin = withdraw.origin;
  reply.target = withdraw.target;
  reply.withdrawn = withdrawn;
  send_packet(std::move(reply));
  if (withdrawn) {
    int owner = withdraw.dst;
    progress_.enable(owner, ChunkStep::CancelWithdrawTarget, withdraw.src, withdraw.message_id, message.bytes,
                     [this, w = withdraw] { cancel_on_withdraw_target(w); });
    progress_.rank(owner).wake();  // its MPI_Finalize may wait for this cancellation
  }
}

void PointToPoint::cancel_on_withdraw_target(const Packet& withdraw)
{
  // The eager data or RTS leaves the unexpected queue; a message whose
  // arrival is not handled yet is dropped then (match_arrived).
  queues_[static_cast<size_t>(withdraw.dst)].remove_unexpected(withdraw);
  progress_.rank(withdraw.dst).wake();
}

void PointToPoint::cancel_on_reply_origin(const Packet& reply)
{
  Request& send = *reply.target;
  Request& message = *reply.origin;
  send.cancel_pending = false;
  if (reply.withdrawn) {
    send.cancelled = true;
    // An RTS or eager-sync message waits for an answer that will not come.
    if (!message.complete())
      complete(message);
  }
  progress_.rank(send.owner).wake();
}

void PointToPoint::note_matched(const Packet& packet)
{
  unreceived_.settled(packet.message_id);
  if (!packet.origin || packet.message_id == 0)
    return;
  packet.origin->matched_message = packet.message_id;
  // Its MPI_Finalize may wait for this send (a wait on anything). A wait on
  // requests cannot be ended by a match: the receive's completion, if the
  // match completes it, wakes the rank itself. So under offload the NIC's
  // match of a collective's internal message is a look, not a wake-up
  // (RankProgress::wake_unless_selective; PROGSIM_WAKE_EVERY_COMPLETION=1
  // wakes as before).
  progress_.rank(packet.dst).wake_unless_selective();
}

void PointToPoint::released_by_user(Request& request)
{
  release_user_hold(request);
  if (request.kind == RequestKind::Send && request.peer_world >= 0)
    progress_.rank(request.peer_world).wake();
}

void PointToPoint::begin_finalize(int rank)
{
  finalizing_[static_cast<size_t>(rank)] = true;
  // Its sends cannot be cancelled any more: that may end a wait in the
  // MPI_Finalize of a rank it sent to, and no other wait (waking every rank
  // here cost O(ranks) per rank, O(N^2) per run). In rank order; taken out
  // first, as a wake may let other ranks run (settle_before_effect_on).
  auto entry = cancellation_waiters_by_sender_.find(rank);
  if (entry == cancellation_waiters_by_sender_.end())
    return;
  std::set<int> targets = std::move(entry->second);
  cancellation_waiters_by_sender_.erase(entry);
  for (int r : targets)
    if (cancellation_waiters_.count(r))
      progress_.rank(r).wake();
}

void PointToPoint::set_waiting_for_cancellations(int rank, bool waiting)
{
  if (!waiting) {
    cancellation_waiters_.erase(rank);
    return;
  }
  cancellation_waiters_.insert(rank);
  for (const RequestPtr& send : cancellable_sends_to(rank))
    cancellation_waiters_by_sender_[send->owner].insert(rank);
}

void PointToPoint::on_rank_end(int rank)
{
  begin_finalize(rank);
}

bool PointToPoint::cancellable(const Request& send) const
{
  if (send.handle == MPI_REQUEST_NULL || !send.active() || send.message_id == 0 ||
      finalizing_[static_cast<size_t>(send.owner)])
    return false;
  const Request& message = send.rare().buffered_message ? *send.rare().buffered_message : send;
  return message.matched_message != send.message_id && message.withdrawn_message != send.message_id;
}

void PointToPoint::track_cancellable(const RequestPtr& send)
{
  // Only the program's point-to-point sends (not a collective's messages).
  if (send->peer_world < 0 || send->context_id != send->comm_context)
    return;
  auto target = static_cast<size_t>(send->peer_world);
  std::vector<std::weak_ptr<Request>>& sends = sends_to_[target];
  if (sends.size() > 2 * sends_to_pruned_size_[target] + 64) {
    // Settled sends never become cancellable again (a restart registers
    // anew). One without a handle may be one the program is about to get.
    sends.erase(std::remove_if(sends.begin(), sends.end(),
                               [this](const std::weak_ptr<Request>& w) {
                                 RequestPtr s = w.lock();
                                 if (!s)
                                   return true;
                                 const Request& m = s->rare().buffered_message ? *s->rare().buffered_message : *s;
                                 return !s->active() || finalizing_[static_cast<size_t>(s->owner)] ||
                                        m.matched_message == s->message_id || m.withdrawn_message == s->message_id;
                               }),
                sends.end());
    sends_to_pruned_size_[target] = sends.size();
  }
  sends.push_back(send);
  if (cancellation_waiters_.count(send->peer_world))  // sent to a rank waiting in MPI_Finalize
    cancellation_waiters_by_sender_[send->owner].insert(send->peer_world);
}

std::vector<RequestPtr> PointToPoint::cancellable_sends_to(int rank) const
{
  std::vector<RequestPtr> sends;
  for (const std::weak_ptr<Request>& w : sends_to_[static_cast<size_t>(rank)])
    if (RequestPtr s = w.lock(); s && cancellable(*s))
      sends.push_back(s);
  return sends;
}

}  // namespace progsim::mpi
