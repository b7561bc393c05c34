// Type matching of point-to-point messages (MPI-4.1 §3.3.1): the type
// signature a send names (its sequence of basic types, `count` times) must
// be a prefix of the receive's. The envelope carries the send's signature
// as a hash (dt::EnvelopeSignature, computed when the message leaves); the
// receiver compares it with the hash of the same number of elements of its
// own signature when the message matches: no cost per element, no
// allocation. MPI_BYTE and MPI_PACKED match anything (§3.3.1, §5.2), and a
// longer message is a truncation (MPI_ERR_TRUNCATE), not checked here.

#include "p2p/PointToPoint.hpp"

#include "MpiModel.hpp"
#include "datatype/TypeSignature.hpp"
#include "diagnosis/StandardErrors.hpp"
#include "diagnosis/CallSites.hpp"

namespace progsim::mpi {

void PointToPoint::check_type_match(const Request& recv, const Packet& packet)
{
  if (!recv.type || !packet.origin || !packet.origin->type ||
      dt::receive_accepts(packet.signature, *recv.type, recv.count))
    return;
  if (!type_mismatches_.insert(link_key(packet.src, packet.dst)).second)
    return;  // reported for this pair of ranks already
  const Request& send = *packet.origin;
  StandardError e;
  e.rule = "type mismatch";
  if (send.check_types) {  // a neighborhood collective's portion (MPI-4.1 §8.6)
    e.section = "MPI-4.1 §8.6";
    e.requirement = "the type signature of the portion a process sends to a neighbor equals that of the portion "
                    "the neighbor receives from it";
  } else {
    e.section = "MPI-4.1 §3.3.1";
    e.requirement = "the type signature of a message (the sequence of basic datatypes of the send) is a prefix of "
                    "the receive's; only MPI_BYTE and MPI_PACKED match other types";
  }
  e.what = "type mismatch: rank " + std::to_string(packet.src) + " sent " + dt::items_text(*send.type, send.count) +
           (send.check_types ? std::string(" in ") + send.call : " (tag " + std::to_string(packet.tag) + ")") +
           " and rank " + std::to_string(packet.dst) + " received it as " +
           dt::items_text(*recv.type, recv.count);
  e.sites = {{packet.src, send.call, call_site_text(MpiModel::instance(), packet.src, send.call_site)},
             {packet.dst, recv.call, call_site_text(MpiModel::instance(), packet.dst, recv.call_site)}};
  e.time = now();
  e.context_id = recv.comm_context;
  MpiModel::instance().standard_errors().add(std::move(e));
}

}  // namespace progsim::mpi
