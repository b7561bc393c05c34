// Rendezvous protocols for messages above the eager threshold: the origin
// sends only an RTS (request to send); the data moves once the target has
// matched it.
//   push (default, the classic software protocol): the target answers CTS;
//     the origin, on CTS, writes the data (rndv.on_cts_origin is a chunk of
//     the origin: under weak progress it needs the origin inside MPI).
//   pull (--cfg rendezvous=pull): the target reads the data from the origin
//     with an RDMA get, which needs no origin CPU, then sends FIN; the
//     origin completes its send when it handles FIN.
// The arrival of the data itself is a NIC event: the receive completes then.

#include "p2p/PointToPoint.hpp"

namespace progsim::mpi {

void PointToPoint::rndv_start_origin(const RequestPtr& send)
{
  Packet p = envelope_packet(PacketKind::Rts, *send);
  p.origin = send;
  send_packet(std::move(p));
  send->state = send->protocol == Protocol::RendezvousPull ? RequestState::WaitingForFin : RequestState::WaitingForCts;
}

void PointToPoint::rndv_matched_target(const RequestPtr& recv, const Packet& rts)
{
  mark_matched(recv, rts);
  recv->state = RequestState::WaitingForData;
  const RequestPtr& send = rts.origin;
  if (send->protocol == Protocol::RendezvousPull) {
    // RDMA get: a transfer from the origin's memory, driven by the target.
    Packet get = control_packet(PacketKind::Data, rts.src, rts.dst);
    get.wire_bytes += rts.data_bytes;
    get.data_bytes = rts.data_bytes;
    get.message_id = rts.message_id;
    get.origin = send;
    get.target = recv;
    send_packet(std::move(get));
    return;
  }
  Packet cts = control_packet(PacketKind::Cts, rts.dst, rts.src);
  cts.data_bytes = rts.data_bytes;
  cts.message_id = rts.message_id;
  cts.origin = send;
  cts.target = recv;
  send_packet(std::move(cts));
}

void PointToPoint::rndv_on_cts_origin(const Packet& cts)
{
  const RequestPtr& send = cts.origin;
  Packet data = control_packet(PacketKind::Data, cts.dst, cts.src);
  data.wire_bytes += send->bytes;
  data.data_bytes = send->bytes;
  data.message_id = cts.message_id;
  // The data is read from the send buffer when it lands (the program may not
  // touch the buffer before the send completes, which is after): one copy,
  // no staging buffer. A buffered send's data is already staged.
  data.payload = send->staged;
  data.origin = send;
  data.target = cts.target;
  send->state = RequestState::SendingData;
  send_packet(std::move(data));
}

void PointToPoint::rndv_on_data_target(Packet data)
{
  const RequestPtr& send = data.origin;
  const RequestPtr& recv = data.target;
  bool pull = send->protocol == Protocol::RendezvousPull;
  // A put or a get copies the origin's buffer as it is when the transfer
  // ends, straight into the receive layout.
  if (data.payload)
    unpack(*recv, *data.payload, data.data_bytes);
  else
    copy_from_send(*recv, *send, data.data_bytes);
  complete(*recv);
  if (pull) {
    Packet fin = control_packet(PacketKind::Fin, data.dst, data.src);
    fin.message_id = data.message_id;
    fin.origin = send;
    send_packet(std::move(fin));
  } else {
    complete(*send);  // the origin NIC reports the write done
  }
}

void PointToPoint::rndv_on_fin_origin(const Packet& fin)
{
  complete(*fin.origin);
}

}  // namespace progsim::mpi
