#include "diagnosis/PointToPointWaits.hpp"

#include "diagnosis/StandardErrors.hpp"
#include "p2p/PointToPoint.hpp"
#include "progress/ProgressEngine.hpp"

namespace progsim::mpi {

namespace {

std::string rank_text(int world)
{
  return world < 0 ? "any rank" : "rank " + std::to_string(world);
}

}  // namespace

void PointToPointWaits::wait_edges(int rank, std::vector<WaitEdge>& edges) const
{
  for (const RequestPtr& req : p2p_.waited(rank))
    edges_of(*req, edges);
  // MPI_Finalize delays its return while a sender may still cancel a send
  // to this rank (MPI-4.1 §11.2.2 advice; p2p/SendCancel.cpp).
  if (p2p_.finalizing(rank))
    for (const RequestPtr& send : p2p_.cancellable_sends_to(rank)) {
      WaitEdge e;
      e.from = rank;
      e.to = send->owner;
      e.waits_for = rank_text(send->owner) + " to complete, free or cancel its " + send->describe() +
                    " (MPI_Finalize waits until no send to it can still be cancelled, MPI-4.1 §11.2.2)";
      edges.push_back(e);
    }
  if (const auto& probe = p2p_.probing(rank)) {
    WaitEdge e;
    e.from = rank;
    e.to = probe->source_world;
    e.waits_for = "a matching send from " + rank_text(probe->source_world) + " (tag " +
                  (probe->tag == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(probe->tag)) + ")";
    edges.push_back(e);
  }
}

std::string PointToPointWaits::pending(int rank) const
{
  return p2p_.explain(rank);
}

std::string PointToPointWaits::queued_chunk(int owner, std::uint64_t message_id) const
{
  if (owner < 0 || message_id == 0)
    return "";
  for (const ProgressChunk& c : const_cast<ProgressEngine&>(progress_).rank(owner).host_queue())
    if (c.message_id == message_id)
      return c.describe();
  return "";
}

void PointToPointWaits::edges_of(const Request& r, std::vector<WaitEdge>& edges) const
{
  if (r.complete() || r.kind == RequestKind::Rma)  // RMA requests: RmaWaits
    return;
  if (r.kind == RequestKind::Collective) {
    // A collective waits for the messages of its current round.
    if (r.collective)
      for (const RequestPtr& message : r.collective->in_flight())
        edges_of(*message, edges);
    return;
  }
  if (r.kind == RequestKind::Partitioned) {
    // A partitioned request waits for its handshake and partition messages
    // (an unmatched one: for the peer's partitioned call), and for the
    // partitions its owner has not marked ready.
    if (!r.rare().partitioned)
      return;
    std::size_t first = edges.size();
    for (const RequestPtr& message : r.rare().partitioned->in_flight())
      edges_of(*message, edges);
    for (std::size_t i = first; i < edges.size(); ++i)
      if (edges[i].kind == WaitKind::CollectivePartner) {
        edges[i].kind = WaitKind::MatchingCall;
        edges[i].waits_for = r.rare().partitioned->waits_for_peer();
      }
    std::string own = r.rare().partitioned->waits_for_owner();
    if (!own.empty()) {
      WaitEdge e;
      e.from = e.to = r.owner;
      e.kind = WaitKind::Own;
      e.waits_for = own;
      edges.push_back(e);
    }
    return;
  }
  if (!r.rare().parts.empty()) {
    for (auto& part : r.rare().parts)
      edges_of(*part, edges);
    return;
  }
  WaitEdge e;
  e.from = r.owner;
  e.to = r.peer_world;
  bool internal = r.context_id != r.comm_context;
  if (r.kind == RequestKind::Generalized) {
    // Only the program completes it, and this rank is blocked.
    e.to = r.owner;
    e.kind = WaitKind::Own;
    e.waits_for = "its own MPI_Grequest_complete";
  } else if (r.kind == RequestKind::Recv) {
    if (r.state == RequestState::WaitingForData) {
      e.kind = WaitKind::ProgressChunk;
      e.chunk = queued_chunk(e.to, r.message_id);
      e.waits_for = "the data of " + rank_text(e.to) + "'s matched rendezvous send: a decoupled activity (progress "
                    "chunk" + (e.chunk.empty() ? std::string() : " " + e.chunk) + ") that " + rank_text(e.to) +
                    "'s MPI library must execute";
    } else if (internal) {
      e.kind = WaitKind::CollectivePartner;
      e.waits_for = rank_text(e.to) + " to take part in " + r.call + " (a collective partner)";
    } else {
      e.waits_for = "a matching send from " + rank_text(e.to) + " (tag " +
                    (r.tag == MPI_ANY_TAG ? std::string("MPI_ANY_TAG") : std::to_string(r.tag)) + ")";
    }
  } else {
    e.bytes = r.bytes;
    bool rendezvous = r.protocol == Protocol::RendezvousPush || r.protocol == Protocol::RendezvousPull;
    if (internal) {
      e.kind = WaitKind::CollectivePartner;
      e.waits_for = rank_text(e.to) + " to take part in " + r.call + " (a collective partner)";
      // Sending to a partner that has not joined yet: whether a collective
      // waits for it is the implementation's choice (MPI-4.1 §6.14).
      if (p2p_.is_unmatched_at_target(r))
        e.freedom = std::string(r.call) + " may or may not synchronize (MPI-4.1 §6.14 \"Correctness\"): this implementation "
                             "waits for " + rank_text(e.to) + " to join";
    } else if (p2p_.is_unmatched_at_target(r)) {
      e.waits_for = "a matching receive on " + rank_text(e.to);
      if (rendezvous)
        e.waits_for += " (its RTS of " + std::to_string(r.bytes) + " B is unmatched there)";
      e.bufferable_send = (r.mode == SendMode::Standard || r.mode == SendMode::Ready) && rendezvous;
    } else {
      e.kind = WaitKind::ProgressChunk;
      e.waits_for = rank_text(e.to) + " to complete the " + to_string(r.protocol) + " handshake (" +
                    to_string(r.state) + ")";
    }
  }
  // The collectives of a communicator with a mismatch: whatever this wait
  // is, the program caused it.
  if (internal)
    if (const StandardError* error = errors_.on_communicator(r.comm_context))
      e.error = error->what + " (" + error->section + " requires that " + error->requirement + ")";
  edges.push_back(e);
}

}  // namespace progsim::mpi
