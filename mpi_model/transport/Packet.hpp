// What travels between two ranks' NICs. Every protocol message of the model
// is one packet; SimGrid times its transfer over the platform's links.
#pragma once

#include "core/Request.hpp"
#include "datatype/TypeSignature.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace progsim::mpi {

namespace rma {
struct RmaMessage;
}

enum class PacketKind {
  Eager,  // envelope + data
  Rts,    // rendezvous request to send: envelope, size, origin request
  Cts,    // clear to send (push): target request to deliver into
  Data,   // rendezvous data (push: written by the origin; pull: read by the target)
  Ack,    // eager-sync: the target matched the message
  Fin,    // pull: the target has read the data
  Rma,    // one-sided communication: an RMA operation, its reply, or a synchronization message (rma/)
  Withdraw,       // MPI_Cancel of a send: withdraw the message unless matched (decided by the target's NIC)
  WithdrawReply,  // the target NIC's answer: withdrawn or already matched
};

const char* to_string(PacketKind kind);

struct Packet {
  PacketKind kind = PacketKind::Eager;
  int src = 0;  // world ranks
  int dst = 0;
  std::size_t wire_bytes = 0;  // header + data, what the network carries

  // Matching envelope (Eager, Rts) and message identity.
  int context_id = 0;
  int src_local = 0;  // the sender's rank in the communicator
  int tag = 0;
  std::size_t data_bytes = 0;
  bool sync = false;          // Eager: the sender waits for an Ack
  bool withdrawn = false;     // WithdrawReply: the message was withdrawn (the cancel succeeded)
  std::uint64_t sequence = 0; // per (src, dst) order of matchable packets (non-overtaking)
  std::uint64_t message_id = 0;
  // Eager, Rts of the program's messages: the send's type signature, which
  // the receive's must extend (MPI-4.1 §3.3.1; p2p/TypeMatching.cpp).
  dt::EnvelopeSignature signature;

  std::shared_ptr<std::vector<std::byte>> payload;  // Eager and Data
  RequestPtr origin;  // the send request (a buffered send's: the library's request that carries the data)
  RequestPtr target;  // the receive request (Withdraw, WithdrawReply: the program's send request)
  std::shared_ptr<rma::RmaMessage> rma;  // kind Rma
};

}  // namespace progsim::mpi
