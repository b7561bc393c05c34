// The point-to-point engine (MPI-4.1 chapter 3) of all ranks: starting sends
// and receives, matching, the protocols (EagerProtocol.cpp,
// RendezvousProtocol.cpp), probes, cancellation and buffered sends.
//
// Work done inside the MPI call that starts an operation (injecting an
// eager message, matching an already arrived message, answering its RTS)
// runs directly. Work that happens later, when a packet arrives, is enabled
// as a progress chunk of the rank that must do it; the progress policy
// decides who runs it and when.
#pragma once

#include "ModelParameters.hpp"
#include "core/Communicator.hpp"
#include "core/DatatypeTable.hpp"
#include "core/Request.hpp"
#include "p2p/BufferedSendBuffer.hpp"
#include "p2p/MatchingQueues.hpp"
#include "p2p/MessageLog.hpp"
#include "p2p/UnreceivedMessages.hpp"
#include "progress/ProgressEngine.hpp"
#include "transport/Fabric.hpp"

#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

// What MPI_Send & co. were called with (after argument checks).
struct OperationArgs {
  void* buf = nullptr;
  std::int64_t count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;
  int peer = 0;  // local rank in comm (destination, or source / MPI_ANY_SOURCE / MPI_PROC_NULL)
  int tag = 0;
  const Communicator* comm = nullptr;
  int context_offset = 0;  // 0: user traffic; 1: collectives' internal traffic
  const char* call = "";
};

class MessageRaces;

class PointToPoint {
public:
  PointToPoint(ProgressEngine& progress, Fabric& fabric, DatatypeTable& datatypes, const ModelParameters& parameters,
               int world_size);

  // New requests (not yet started; persistent ones stay Inactive).
  RequestPtr make_send(int rank, SendMode mode, const OperationArgs& args);
  RequestPtr make_recv(int rank, const OperationArgs& args);
  // Starts (or restarts, for persistent requests) an operation. Returns an
  // MPI error class (MPI_ERR_BUFFER when a buffered send does not fit).
  int start(const RequestPtr& request);
  // Receives the message taken out by MPI_Mprobe / MPI_Improbe.
  void start_matched_recv(const RequestPtr& request, Packet message);

  // Probes (MPI-4.1 §3.8): the first unexpected message the envelope matches.
  const Packet* probe(int rank, int context, int source, int tag) const;
  std::optional<Packet> take_message(int rank, int context, int source, int tag);

  // A buffered send (MPI-4.1 §3.6): the library's own request carries the
  // data from the attached buffer; the program's request completes at once.
  // Returns an MPI error class (MPI_ERR_BUFFER when it does not fit).
  int start_buffered(const RequestPtr& send);

  // MPI_Request_free on an active request: the library finishes it alone.
  void freed_by_user(Request& request);
  // MPI_Cancel (MPI-4.1 §3.8.4): a receive not matched yet is cancelled at
  // once; a send's message is withdrawn at its target unless already matched
  // (SendCancel.cpp).
  void cancel(const RequestPtr& request);
  // The program holds `request` active: its handle was given back by the
  // call that started it, or MPI_Start started it again. The overlap meter
  // of its owner keeps what the operation will be measured on
  // (HeldRequests.cpp). Generalized and inactive requests are not held.
  void held_by_user(Request& request);
  // The program can no longer cancel this request: MPI_Wait & co. retired
  // it, or MPI_Request_free freed it. Its overlap is measured if the
  // program saw it complete, and it is no longer held.
  void released_by_user(Request& request);
  // The active requests each rank holds, counted from the request table,
  // against its overlap meter's count: the lines of the ranks that differ
  // (empty when every path that holds a request also releases it).
  std::string held_requests_mismatch(const std::vector<RequestPtr>& live) const;

  // MPI_Finalize (MPI-4.1 §11.2.2, SendCancel.cpp): the rank entered it /
  // ended, so it cancels none of its sends any more.
  void begin_finalize(int rank);
  void on_rank_end(int rank);
  // Whether a send to `rank` may still be cancelled by its sender: its
  // MPI_Finalize waits until none may ("delay the return from MPI_FINALIZE
  // until all potential future message cancellations have been processed").
  bool may_be_cancelled_to(int rank) const { return !cancellable_sends_to(rank).empty(); }
  std::vector<RequestPtr> cancellable_sends_to(int rank) const;
  bool finalizing(int rank) const { return finalizing_[static_cast<size_t>(rank)]; }
  // `rank`'s MPI_Finalize waits (or no longer waits) for may_be_cancelled_to:
  // the only wait a sender's begin_finalize can end, so the only ranks it wakes.
  void set_waiting_for_cancellations(int rank, bool waiting);

  BufferedSendBuffer& bsend_buffer(int rank) { return bsend_buffers_[static_cast<size_t>(rank)]; }
  // Decoupled activities a rank still has (MPI_Finalize waits for them).
  bool has_pending_activities(int rank) const;
  std::size_t posted_receives(int rank) const { return queues_[static_cast<size_t>(rank)].posted_count(); }
  // Receives posted ahead of SimGrid's clock that will match an arrived
  // message at their post time (match_when_posted): something is still to
  // happen, as with a packet in flight.
  std::size_t pending_matches() const { return pending_matches_; }
  // One line on what a rank's pending activities are (deadlock report).
  std::string explain(int rank) const;
  // The requests a rank is blocked on (set by the blocking calls).
  void set_waited(int rank, std::vector<RequestPtr> requests) { waited_[static_cast<size_t>(rank)] = std::move(requests); }
  const std::vector<RequestPtr>& waited(int rank) const { return waited_[static_cast<size_t>(rank)]; }
  // The probe a rank is blocked in (MPI_Probe, a held MPI_Iprobe), for the
  // same explanations: the message it waits for.
  struct ProbeWait {
    int source_world = -1;  // -1: MPI_ANY_SOURCE
    int tag = MPI_ANY_TAG;
  };
  void set_probing(int rank, std::optional<ProbeWait> probe) { probing_[static_cast<size_t>(rank)] = probe; }
  const std::optional<ProbeWait>& probing(int rank) const { return probing_[static_cast<size_t>(rank)]; }
  // Whether a send's message (eager or RTS) sits unmatched at its target.
  bool is_unmatched_at_target(const Request& send) const;

  void on_arrival(Packet&& packet);
  MessageLog& messages() { return messages_; }
  const MessageLog& messages() const { return messages_; }
  // The program's messages not matched (nor withdrawn) so far.
  const UnreceivedMessages& unreceived() const { return unreceived_; }

  // The packed bytes a request's buffer holds / the receive capacity.
  std::size_t packed_size(const Request& request) const;

  // progsim replay: the program's buffers are scratch whose contents do not
  // matter, so the data of its own point-to-point messages is neither
  // staged nor copied (sizes, statuses and timing are unchanged). The
  // library's internal messages (collectives, communicator creation) still
  // carry theirs: their contents decide what the library does.
  void drop_program_data() { drop_program_data_ = true; }

  // Message races (p2p/MessageRaces.hpp): told of every send, post and
  // match; nullptr (the default) costs one test per operation.
  void watch_races(MessageRaces* races) { races_ = races; }
  MessageRaces* races() const { return races_; }

private:
  // released_by_user's part for the overlap meter (HeldRequests.cpp).
  void release_user_hold(Request& request);
  // Protocol steps. "origin" runs at the sender, "target" at the receiver.
  void eager_start_origin(const RequestPtr& send);
  void eager_on_message_target(Packet packet);  // also handles RTS matching
  void sync_on_ack_origin(const Packet& packet);
  void rndv_start_origin(const RequestPtr& send);
  void rndv_matched_target(const RequestPtr& recv, const Packet& rts);
  void rndv_on_cts_origin(const Packet& packet);
  void rndv_on_data_target(Packet packet);
  void rndv_on_fin_origin(const Packet& packet);
  // MPI_Cancel of a send (SendCancel.cpp).
  void cancel_send(const RequestPtr& send);
  void withdraw_at_target_nic(const Packet& withdraw);
  void cancel_on_withdraw_target(const Packet& withdraw);
  void cancel_on_reply_origin(const Packet& reply);
  // The target matched this message: the NIC's match word says so (a
  // withdrawal arriving later fails).
  void note_matched(const Packet& packet);
  void track_cancellable(const RequestPtr& send);
  // A message of the program leaves: recorded until matched or withdrawn.
  void note_sent(const Request& send);
  bool cancellable(const Request& send) const;

  // Matching outcome for an arrived eager message or RTS at its target.
  void match_arrived(int rank, Packet packet);
  // No receive matched it: kept as unexpected (noinline: match_arrived's frame).
  [[gnu::noinline]] void keep_unexpected(int rank, Packet&& packet, const RequestPtr& later);
  // Delivers a matched message (eager data, or the rendezvous reply).
  void start_matched(const RequestPtr& recv, const Packet& packet);
  // `recv`, posted ahead of SimGrid's clock, missed an arrival: it matches
  // the unexpected messages at its post time.
  void match_when_posted(const RequestPtr& recv);
  // MPI-4.1 §3.3.1: the message's signature is a prefix of the receive's,
  // else a StandardError (TypeMatching.cpp).
  void check_type_match(const Request& recv, const Packet& packet);
  void deliver_eager(const RequestPtr& recv, const Packet& packet);
  void mark_matched(const RequestPtr& recv, const Packet& packet);
  // A forced receive matched: the messages it held go to the receives
  // posted after it (MatchingQueues::take_released).
  void release_held(int rank);

  void complete(Request& request);
  void release_bsend(Request& send);
  std::shared_ptr<std::vector<std::byte>> pack(const Request& send) const;
  // Writes a message into the receive layout: status bytes, MPI_ERR_TRUNCATE.
  void unpack(Request& recv, const std::vector<std::byte>& data, std::size_t message_bytes);
  template <class Access>
  static void with_buffer(const Request& request, bool write, Access&& access);
  // The same from the send request's own buffer and layout (rendezvous).
  void copy_from_send(Request& recv, const Request& send, std::size_t message_bytes);
  // Where `rank` made the call that makes a request (its own calls only).
  std::uintptr_t call_site(int rank, const OperationArgs& args);
  Packet control_packet(PacketKind kind, int src, int dst) const;
  // The first packet of a send (eager data or RTS): its envelope for matching.
  Packet envelope_packet(PacketKind kind, const Request& send) const;
  void send_packet(Packet&& packet);
  // start() of a receive: matches an unexpected message or posts it. Out of
  // start()'s frame (its unexpected message is a Packet): a send's start()
  // is on the deepest path of a replayed rank's stack (Fabric::arm_departures).
  [[gnu::noinline]] void start_recv(const RequestPtr& request);
  void accept_in_order(Packet&& packet);
  void enable_matching(Packet&& packet);
  // Between world ranks src and dst: their transport's threshold and variant.
  Protocol choose_protocol(SendMode mode, std::size_t bytes, int src, int dst) const;
  double now() const;

  ProgressEngine& progress_;
  Fabric& fabric_;
  DatatypeTable& datatypes_;
  const ModelParameters& parameters_;
  int world_size_;
  std::vector<MatchingQueues> queues_;
  std::vector<BufferedSendBuffer> bsend_buffers_;
  std::vector<std::size_t> pending_freed_;  // per rank: started requests the user freed
  // Non-overtaking (MPI-4.1 §3.5): matchable packets of one sender to one
  // receiver are handled in send order even when the network reorders them.
  struct Link {
    std::uint64_t next_out = 0;  // sequence number of the next matchable packet sent
    std::uint64_t expected = 0;  // sequence number of the next packet to hand on
    bool delivering = false;     // an arrival is handing packets on (it may yield)
    std::map<std::uint64_t, Packet> held;  // arrived ahead of their turn
  };
  // By (sender, receiver) (link_key): one hash lookup per packet.
  std::unordered_map<std::uint64_t, Link> links_;
  static std::uint64_t link_key(int src, int dst)
  {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(src)) << 32 | static_cast<std::uint32_t>(dst);
  }
  MessageLog messages_;
  UnreceivedMessages unreceived_;
  std::vector<std::vector<RequestPtr>> waited_;
  std::vector<std::optional<ProbeWait>> probing_;
  // Per target rank: the program's sends to it, for may_be_cancelled_to
  // (pruned of settled ones as it grows).
  std::vector<std::vector<std::weak_ptr<Request>>> sends_to_;
  std::vector<std::size_t> sends_to_pruned_size_;
  std::vector<bool> finalizing_;  // entered MPI_Finalize or ended
  std::set<int> cancellation_waiters_;  // set_waiting_for_cancellations
  // Per sender: the waiters above it had a send to that may be cancelled
  // (when they began to wait, or since); begin_finalize wakes these. An entry
  // may be stale (the rank stopped waiting): checked then.
  std::map<int, std::set<int>> cancellation_waiters_by_sender_;
  std::size_t pending_matches_ = 0;
  // (sender, receiver) pairs with a type mismatch reported: one error per
  // pair, not one per message of a loop.
  std::set<std::uint64_t> type_mismatches_;
  bool drop_program_data_ = false;
  MessageRaces* races_ = nullptr;
  // Whether the message of `request` (a send or a receive) carries its data.
  bool carries_data(const Request& request) const
  {
    return !drop_program_data_ || request.context_id != request.comm_context;
  }
};


}  // namespace progsim::mpi
