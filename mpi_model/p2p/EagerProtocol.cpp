// Eager protocol: the data travels with the envelope. A standard-mode eager
// send is complete as soon as its data is copied out (the library buffers
// it); at the target the message is matched to a posted receive or kept as
// unexpected until one is posted. Eager-sync (small MPI_Ssend) adds an ACK
// from the target once matched (MPI-4.1 §3.4: Ssend completes only after
// the matching receive started).

#include "p2p/PointToPoint.hpp"

namespace progsim::mpi {

void PointToPoint::eager_start_origin(const RequestPtr& send)
{
  Packet p = envelope_packet(PacketKind::Eager, *send);
  p.wire_bytes += send->bytes;
  p.payload = send->staged ? send->staged : pack(*send);
  p.origin = send;
  p.sync = send->protocol == Protocol::EagerSync;
  send_packet(std::move(p));
  if (send->protocol == Protocol::EagerSync) {
    send->state = RequestState::WaitingForAck;
  } else if (send->from_bsend_buffer) {
    // The internal request of a buffered send ends when its data left the
    // attached buffer (on_arrival releases the space); the user's request
    // was complete at once.
    send->state = RequestState::SendingData;
  } else {
    complete(*send);
  }
}

// eager.on_message_target and rndv.on_rts_target: both are matching.
void PointToPoint::eager_on_message_target(Packet packet)
{
  int rank = packet.dst;
  match_arrived(rank, std::move(packet));
}

void PointToPoint::deliver_eager(const RequestPtr& recv, const Packet& packet)
{
  mark_matched(recv, packet);
  unpack(*recv, *packet.payload, packet.data_bytes);
  if (packet.sync) {
    Packet ack = control_packet(PacketKind::Ack, packet.dst, packet.src);
    ack.message_id = packet.message_id;
    ack.origin = packet.origin;
    send_packet(std::move(ack));
  }
  complete(*recv);
}

void PointToPoint::sync_on_ack_origin(const Packet& packet)
{
  complete(*packet.origin);
}

}  // namespace progsim::mpi
