#include "p2p/PointToPoint.hpp"

#include <algorithm>
#include "sim/timeline/Timeline.hpp"

#include "datatype/Pack.hpp"
#include "MpiModel.hpp"
#include "diagnosis/CallSites.hpp"
#include "diagnosis/StandardErrors.hpp"
#include "p2p/MessageRaces.hpp"
#include "sim/ActingTime.hpp"
#include "sim/CallScope.hpp"
#include "sim/Rank.hpp"

#include <simgrid/kernel/Timer.hpp>

#include <limits>

namespace progsim::mpi {

PointToPoint::PointToPoint(ProgressEngine& progress, Fabric& fabric, DatatypeTable& datatypes,
                           const ModelParameters& parameters, int world_size)
    : progress_(progress),
      fabric_(fabric),
      datatypes_(datatypes),
      parameters_(parameters),
      world_size_(world_size),
      queues_(static_cast<size_t>(world_size)),
      bsend_buffers_(static_cast<size_t>(world_size)),
      pending_freed_(static_cast<size_t>(world_size), 0),
      messages_(static_cast<std::size_t>(std::max(0LL, parameters.report_messages))),
      waited_(static_cast<size_t>(world_size)),
      probing_(static_cast<size_t>(world_size)),
      sends_to_(static_cast<size_t>(world_size)),
      sends_to_pruned_size_(static_cast<size_t>(world_size), 0),
      finalizing_(static_cast<size_t>(world_size), false)
{
}

double PointToPoint::now() const
{
  return sim::acting_time();
}

std::size_t PointToPoint::packed_size(const Request& request) const
{
  return request.type ? static_cast<std::size_t>(request.type->size() * request.count) : 0;
}

// `call_site`: where the program made the call (diagnosis/CallSites.hpp).
static RequestPtr make_request(RequestKind kind, int rank, const OperationArgs& args, dt::DatatypePtr type,
                               std::uintptr_t call_site)
{
  RequestPtr r = new_request(kind, rank, *args.comm, args.context_offset, args.call);
  r->peer_world = args.peer >= 0 ? args.comm->world_rank(args.peer) : -1;
  r->peer = args.peer;
  r->tag = args.tag;
  r->buf = args.buf;
  r->count = args.count;
  r->datatype = args.datatype;
  r->type = std::move(type);
  r->state = RequestState::Inactive;
  r->call_site = call_site;
  return r;
}

std::uintptr_t PointToPoint::call_site(int rank, const OperationArgs& args)
{
  // The program's own calls only (the library's internal messages have no
  // type-matching errors to report).
  return args.context_offset == 0 ? call_site_mark(&progress_.rank(rank).sim_rank()) : 0;
}

RequestPtr PointToPoint::make_send(int rank, SendMode mode, const OperationArgs& args)
{
  RequestPtr r = make_request(RequestKind::Send, rank, args, datatypes_.find(args.datatype), call_site(rank, args));
  r->mode = mode;
  r->bytes = packed_size(*r);
  return r;
}

RequestPtr PointToPoint::make_recv(int rank, const OperationArgs& args)
{
  RequestPtr r = make_request(RequestKind::Recv, rank, args, datatypes_.find(args.datatype), call_site(rank, args));
  r->bytes = packed_size(*r);
  return r;
}

Protocol PointToPoint::choose_protocol(SendMode mode, std::size_t bytes, int src, int dst) const
{
  bool same_host = fabric_.same_host(src, dst);
  long long threshold = parameters_.eager_threshold_between(same_host);
  bool small = threshold > 0 && bytes <= static_cast<std::size_t>(threshold);
  Protocol rendezvous =
      parameters_.rendezvous_between(same_host, mode == SendMode::Buffered) == "pull" ? Protocol::RendezvousPull
                                                                                     : Protocol::RendezvousPush;
  if (mode == SendMode::Synchronous)
    return small ? Protocol::EagerSync : rendezvous;
  return small ? Protocol::Eager : rendezvous;
}

int PointToPoint::start(const RequestPtr& r)
{
  r->state = RequestState::Posted;
  r->cancelled = false;
  r->cancel_pending = false;
  r->status_error = MPI_SUCCESS;
  r->status_bytes = 0;
  r->staged.reset();
  r->post_time = now();
  r->match_time = r->complete_time = -1;
  if (r->peer == MPI_PROC_NULL) {
    r->protocol = Protocol::None;
    r->status_source = MPI_PROC_NULL;
    r->status_tag = MPI_ANY_TAG;
    complete(*r);
    return MPI_SUCCESS;
  }
  if (r->kind == RequestKind::Recv) {
    start_recv(r);
    return MPI_SUCCESS;
  }

  r->protocol = r->library_buffered ? Protocol::Eager : choose_protocol(r->mode, r->bytes, r->owner, r->peer_world);
  if (r->mode == SendMode::Buffered) {
    // MPI-4.1 §3.6: the data is copied into the attached buffer now.
    std::size_t need = r->bytes + MPI_BSEND_OVERHEAD;
    if (!bsend_buffers_[static_cast<size_t>(r->owner)].reserve(need))
      return MPI_ERR_BUFFER;
    r->writable_rare().bsend_reservation = need;
    r->from_bsend_buffer = true;
    r->staged = pack(*r);
  }
  int dest_world = r->peer_world;
  MessageRecord record;
  record.source = r->owner;
  record.dest = dest_world;
  record.tag = r->tag;
  record.bytes = r->bytes;
  record.protocol = r->protocol;
  record.post_time = r->post_time;
  r->message_id = messages_.add(record);
  if (races_)
    races_->on_send(*r);
  note_sent(*r);
  if (r->mode != SendMode::Buffered)  // a buffered send's program request: start_buffered
    track_cancellable(r);
  if (r->protocol == Protocol::Eager || r->protocol == Protocol::EagerSync)
    eager_start_origin(r);
  else
    rndv_start_origin(r);
  return MPI_SUCCESS;
}

void PointToPoint::note_sent(const Request& send)
{
  if (!UnreceivedMessages::records(send))
    return;
  // The program's call that sends: its own rank is calling (MPI_Send,
  // MPI_Start, MPI_Bsend...), else the call that made the request.
  sim::Rank* rank = sim::calling_rank();
  if (rank && rank->id() == send.owner && rank->current_call())
    unreceived_.sent(send, rank->current_call(), call_site_mark(rank));
  else
    unreceived_.sent(send, send.call, send.call_site);
}

void PointToPoint::start_matched_recv(const RequestPtr& recv, Packet message)
{
  recv->state = RequestState::Posted;
  if (recv->post_time < 0)
    recv->post_time = now();
  start_matched(recv, message);
}

const Packet* PointToPoint::probe(int rank, int context, int source, int tag) const
{
  return queues_[static_cast<size_t>(rank)].peek_unexpected(context, source, tag);
}

std::optional<Packet> PointToPoint::take_message(int rank, int context, int source, int tag)
{
  std::optional<Packet> message = queues_[static_cast<size_t>(rank)].take_unexpected(context, source, tag);
  if (message) {
    note_matched(*message);  // MPI_Mprobe matches it (MPI-4.1 §3.8.2): a cancel fails from now on
    if (races_)
      races_->on_taken(rank, *message);
  }
  return message;
}

void PointToPoint::cancel(const RequestPtr& r)
{
  if (r->kind == RequestKind::Send) {
    cancel_send(r);
    return;
  }
  // MPI-4.1 §3.8.4: a receive that has not matched can be cancelled.
  Request& request = *r;
  if (request.kind == RequestKind::Recv && request.state == RequestState::Posted &&
      queues_[static_cast<size_t>(request.owner)].remove_posted(request)) {
    request.cancelled = true;
    request.status_source = MPI_ANY_SOURCE;
    request.status_tag = MPI_ANY_TAG;
    complete(request);
  }
}

void PointToPoint::freed_by_user(Request& request)
{
  request.freed_by_user = true;
  if (!request.complete())
    ++pending_freed_[static_cast<size_t>(request.owner)];
}

bool PointToPoint::has_pending_activities(int rank) const
{
  return bsend_buffers_[static_cast<size_t>(rank)].pending_messages() > 0 ||
         pending_freed_[static_cast<size_t>(rank)] > 0 || !progress_.rank(rank).host_queue().empty();
}

std::string PointToPoint::explain(int rank) const
{
  const BufferedSendBuffer& b = bsend_buffers_[static_cast<size_t>(rank)];
  std::string text;
  if (b.pending_messages() > 0)
    text += std::to_string(b.pending_messages()) + " buffered send(s) not yet delivered; ";
  const MatchingQueues& q = queues_[static_cast<size_t>(rank)];
  text += std::to_string(q.posted_count()) + " posted receive(s) unmatched, " + std::to_string(q.unexpected_count()) +
          " unexpected message(s) queued";
  for (const Packet& p : q.unexpected())
    if (p.kind == PacketKind::Rts)
      text += "; unmatched RTS of " + std::to_string(p.data_bytes) + " B from rank " + std::to_string(p.src) +
              " (tag " + std::to_string(p.tag) + ")";
  return text;
}

bool PointToPoint::is_unmatched_at_target(const Request& send) const
{
  if (send.kind != RequestKind::Send || send.peer_world < 0)
    return false;
  int target = send.peer_world;
  for (const Packet& p : queues_[static_cast<size_t>(target)].unexpected())
    if (p.origin.get() == &send && !is_withdrawn(p))
      return true;
  return false;
}

void PointToPoint::complete(Request& request)
{
  request.state = RequestState::Complete;
  request.complete_time = now();
  if (request.kind == RequestKind::Recv && request.message_id)
    if (std::optional<MessageRecord> m = messages_.completed(request.message_id, request.complete_time))
      if (sim::Timeline* timeline = sim::Timeline::active())
        timeline->message({m->source, m->dest, m->tag, m->bytes, m->post_time, m->complete_time});
  if (request.from_bsend_buffer)
    release_bsend(request);
  if (request.freed_by_user && pending_freed_[static_cast<size_t>(request.owner)] > 0)
    --pending_freed_[static_cast<size_t>(request.owner)];
  if (request.completion_listener) {
    auto listener = std::move(request.completion_listener);
    request.completion_listener = nullptr;
    listener();
  }
  if (request.listener_only)
    progress_.rank(request.owner).wake_unless_selective();
  else
    progress_.rank(request.owner).wake();
}

void PointToPoint::release_bsend(Request& send)
{
  if (send.rare().bsend_reservation == 0)
    return;
  bsend_buffers_[static_cast<size_t>(send.owner)].release(send.rare().bsend_reservation);
  send.writable_rare().bsend_reservation = 0;
  progress_.rank(send.owner).wake();
}

// The model reads or writes a request's buffer: with --check buffers, its
// guarded pages are opened meanwhile (diagnosis/PendingBuffers). A
// collective's internal message has no guard of its own but may point into
// the guarded buffer of its collective: any guard opens the pages.
template <class Access>
void PointToPoint::with_buffer(const Request& request, bool write, Access&& access)
{
  if (request.rare().buffer_guards.empty() && !MpiModel::instance().pending_buffers().guarding())
    access();
  else
    MpiModel::instance().pending_buffers().model_access(request, write, access);
}

std::shared_ptr<std::vector<std::byte>> PointToPoint::pack(const Request& send) const
{
  if (!carries_data(send)) {
    static const auto no_data = std::make_shared<std::vector<std::byte>>();
    return no_data;  // unpack copies nothing from it (drop_program_data)
  }
  auto data = std::make_shared<std::vector<std::byte>>(send.bytes);
  if (send.bytes > 0) {
    std::size_t position = 0;
    with_buffer(send, false, [&] { dt::pack(send.buf, send.count, *send.type, data->data(), data->size(), position); });
  }
  return data;
}

void PointToPoint::unpack(Request& recv, const std::vector<std::byte>& data, std::size_t message_bytes)
{
  std::size_t n = std::min(message_bytes, recv.bytes);
  if (n > 0 && data.size() >= n) {  // else dropped data (drop_program_data)
    with_buffer(recv, true, [&] {
      dt::unpack_range(data.data(), 0, static_cast<std::int64_t>(n), recv.buf, recv.count, *recv.type);
    });
  }
  recv.status_bytes = n;
  if (message_bytes > recv.bytes)
    recv.status_error = MPI_ERR_TRUNCATE;
}

void PointToPoint::copy_from_send(Request& recv, const Request& send, std::size_t message_bytes)
{
  std::size_t n = std::min(message_bytes, recv.bytes);
  if (n > 0 && carries_data(send))
    with_buffer(send, false, [&] {
      with_buffer(recv, true, [&] {
        dt::copy_typed(send.buf, send.count, *send.type, recv.buf, recv.count, *recv.type,
                       static_cast<std::int64_t>(n));
      });
    });
  recv.status_bytes = n;
  if (message_bytes > recv.bytes)
    recv.status_error = MPI_ERR_TRUNCATE;
}

void PointToPoint::mark_matched(const RequestPtr& recv, const Packet& packet)
{
  recv->match_time = now();
  recv->message_id = packet.message_id;
  recv->status_source = packet.src_local;
  recv->status_tag = packet.tag;
  messages_.matched(packet.message_id, recv->match_time);
  note_matched(packet);
}

Packet PointToPoint::control_packet(PacketKind kind, int src, int dst) const
{
  Packet p;
  p.kind = kind;
  p.src = src;
  p.dst = dst;
  p.wire_bytes = static_cast<std::size_t>(parameters_.header_bytes);
  return p;
}

Packet PointToPoint::envelope_packet(PacketKind kind, const Request& send) const
{
  Packet p = control_packet(kind, send.owner, send.peer_world);
  p.context_id = send.context_id;
  p.src_local = send.self_local;
  p.tag = send.tag;
  p.data_bytes = send.bytes;
  p.message_id = send.message_id;
  // Not a collective's or partition's internal message, unless it carries a
  // portion of a neighborhood collective.
  if (send.type && (send.context_id == send.comm_context || send.check_types))
    p.signature = dt::envelope_signature(*send.type, send.count);
  return p;
}

void PointToPoint::start_recv(const RequestPtr& r)
{
  int rank = r->owner;
  if (races_)
    races_->on_post(*r);
  if (auto message = queues_[static_cast<size_t>(rank)].take_unexpected(r->context_id, r->peer, r->tag))
    start_matched_recv(r, std::move(*message));
  else
    queues_[static_cast<size_t>(rank)].post(r);
}

void PointToPoint::send_packet(Packet&& packet)
{
  if (packet.kind == PacketKind::Eager || packet.kind == PacketKind::Rts)
    packet.sequence = links_[link_key(packet.src, packet.dst)].next_out++;
  fabric_.send(std::move(packet));
}

void PointToPoint::on_arrival(Packet&& packet)
{
  switch (packet.kind) {
    case PacketKind::Eager:
      // The origin NIC has read the buffered data: that buffer space is free.
      if (packet.origin && packet.origin->from_bsend_buffer && !packet.sync)
        release_bsend(*packet.origin);
      accept_in_order(std::move(packet));
      break;
    case PacketKind::Rts:
      accept_in_order(std::move(packet));
      break;
    case PacketKind::Cts: {
      int owner = packet.dst;
      progress_.enable(owner, ChunkStep::CtsOnCtsOrigin, packet.src, packet.message_id, packet.data_bytes,
                       [this, p = std::move(packet)] { rndv_on_cts_origin(p); });
      break;
    }
    case PacketKind::Data:
      rndv_on_data_target(std::move(packet));
      break;
    case PacketKind::Ack: {
      int owner = packet.dst;
      progress_.enable(owner, ChunkStep::AckOnAckOrigin, packet.src, packet.message_id, 0,
                       [this, p = std::move(packet)] { sync_on_ack_origin(p); });
      break;
    }
    case PacketKind::Fin: {
      int owner = packet.dst;
      progress_.enable(owner, ChunkStep::FinOnFinOrigin, packet.src, packet.message_id, 0,
                       [this, p = std::move(packet)] { rndv_on_fin_origin(p); });
      break;
    }
    case PacketKind::Withdraw:
      withdraw_at_target_nic(packet);
      break;
    case PacketKind::WithdrawReply: {
      int owner = packet.dst;
      progress_.enable(owner, ChunkStep::CancelReplyOrigin, packet.src, packet.message_id, 0,
                       [this, p = std::move(packet)] { cancel_on_reply_origin(p); });
      break;
    }
    case PacketKind::Rma:  // routed to the RMA engine by MpiModel
      break;
  }
}

void PointToPoint::accept_in_order(Packet&& packet)
{
  Link& in = links_[link_key(packet.src, packet.dst)];
  if (packet.sequence != in.expected || in.delivering) {
    // Out of order, or another arrival of this link is handing packets to
    // the progress engine: that loop takes this one in its turn.
    in.held.emplace(packet.sequence, std::move(packet));
    return;
  }
  // Enabling a chunk may yield (offload runs a NIC step in the arrival, for
  // a NIC latency); arrivals of this link meanwhile only join `held`, so the
  // chunks are enabled in sequence order (MPI-4.1 §3.5, non-overtaking).
  in.delivering = true;
  ++in.expected;
  enable_matching(std::move(packet));
  for (auto next = in.held.begin(); next != in.held.end() && next->first == in.expected; next = in.held.begin()) {
    Packet p = std::move(next->second);
    in.held.erase(next);
    ++in.expected;
    enable_matching(std::move(p));
  }
  in.delivering = false;
}

void PointToPoint::enable_matching(Packet&& p)
{
  int owner = p.dst;
  ChunkStep step = p.kind == PacketKind::Eager ? ChunkStep::EagerOnMessageTarget : ChunkStep::RtsOnRtsTarget;
  std::uint64_t id = p.message_id;
  std::size_t bytes = p.data_bytes;
  int peer = p.src;
  progress_.enable(owner, step, peer, id, bytes, [this, q = std::move(p)] { eager_on_message_target(q); });
}

void PointToPoint::match_arrived(int rank, Packet packet)
{
  if (is_withdrawn(packet))
    return;  // a cancel withdrew it before it was matched (SendCancel.cpp)
  MatchingQueues& q = queues_[static_cast<size_t>(rank)];
  // The rank itself sees every receive it posted; an agent (NIC, progress
  // thread) matching at SimGrid's clock sees those posted by then.
  sim::Rank* caller = sim::calling_rank();
  double horizon = caller && caller->id() == rank ? std::numeric_limits<double>::infinity() : now();
  RequestPtr later;
  if (RequestPtr recv = q.take_posted(packet, horizon, &later)) {
    start_matched(recv, packet);
    return;
  }
  keep_unexpected(rank, std::move(packet), later);
}

// Out of match_arrived: its frame lies under every delivery of a matched
// message, down to a collective's next round, on a replayed rank's one
// stack page (issue 19; this branch's locals took ~300 bytes there).
void PointToPoint::keep_unexpected(int rank, Packet&& packet, const RequestPtr& later)
{
  queues_[static_cast<size_t>(rank)].add_unexpected(std::move(packet));
  if (later)
    match_when_posted(later);
  // A probe may be waiting for it (a wait on anything): a wait on requests
  // cannot be ended by an unexpected message.
  progress_.rank(rank).wake_unless_selective();
}

void PointToPoint::start_matched(const RequestPtr& recv, const Packet& packet)
{
  if (races_)
    races_->on_match(*recv, packet, now());
  if (packet.signature.checked())
    check_type_match(*recv, packet);
  if (packet.kind == PacketKind::Eager)
    deliver_eager(recv, packet);
  else
    rndv_matched_target(recv, packet);
  if (recv->forced_match)
    release_held(recv->owner);
}

void PointToPoint::release_held(int rank)
{
  while (auto released = queues_[static_cast<size_t>(rank)].take_released())
    start_matched(released->first, released->second);
}

void PointToPoint::match_when_posted(const RequestPtr& recv)
{
  // A receive its rank posted ahead of SimGrid's clock missed a message that
  // arrived before its post time: at that time it takes the first message
  // it accepts, as a receive posted then does.
  ++pending_matches_;
  simgrid::kernel::timer::Timer::set(recv->post_time, [this, recv, posted = recv->post_time] {
    --pending_matches_;
    if (progress_.effects_stopped())
      return;  // the run stopped first: its buffer may be gone
    MatchingQueues& q = queues_[static_cast<size_t>(recv->owner)];
    // Still this posting of it (a persistent receive is posted again), unmatched.
    if (recv->post_time != posted || recv->state != RequestState::Posted || recv->match_time >= 0)
      return;
    std::optional<Packet> message = q.take_unexpected(recv->context_id, recv->peer, recv->tag, recv.get());
    if (!message || !q.remove_posted(*recv))
      return;
    start_matched_recv(recv, std::move(*message));
  });
}

}  // namespace progsim::mpi
