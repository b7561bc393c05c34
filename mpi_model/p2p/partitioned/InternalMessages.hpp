// What both sides of a partitioned operation share (MPI-4.1 chapter 4):
// the internal messages its partitions and its matching handshake travel
// as, through the ordinary point-to-point engine, so that every protocol
// step (eager matching, RTS, CTS, data) is a progress chunk its policy
// schedules.
//
// Contexts: the handshake travels on a context of its own per communicator
// (never matched by user receives, wildcards included); the partitions of
// one matched send/receive pair on a context of their own (the "link"),
// tagged with their message index, so that pairs never mix.
#pragma once

#include "core/Request.hpp"

#include <cstdint>
#include <memory>
#include <vector>

namespace progsim::mpi {

class PointToPoint;

namespace partitioned {

// The context of the matching handshakes of a communicator (context id c):
// negative, so it never equals a communicator's (c >= 0) or its collective
// context (c + 1).
int handshake_context(int comm_context);
// A context for the partitions of one newly initialized send (unique in the
// run, below every handshake context).
int new_link_context();

// What MPI_Psend_init tells the receiver (the handshake's payload): where
// the partitions will travel and how they are cut into messages.
struct Handshake {
  std::int64_t link_context = 0;
  std::int64_t partitions = 0;
  std::int64_t partition_bytes = 0;
  std::int64_t per_message = 1;
  // For the receiver's type matching check (partitioned/TypeMatching.hpp):
  // the whole send's signature (dt::EnvelopeSignature) and where the
  // sender called MPI_Psend_init (diagnosis/CallSites.hpp).
  std::uint64_t signature_hash = 0;
  std::int64_t signature_elements = -1;
  std::uint64_t send_site = 0;
};

// An internal message of the partitioned request `user` (kind Send or
// Recv), not started: `count` items of `datatype` at `buf`, on `context`
// with `tag`, to or from the user's peer.
RequestPtr internal_message(const Request& user, RequestKind kind, int context, int tag, void* buf, std::int64_t count,
                            MPI_Datatype datatype);

// Completes the user's partitioned request (status fields already set) and
// wakes its owner.
void complete_user_request(Request& user);

// Resets the user's request for a new epoch (MPI_Start).
void begin_epoch(Request& user);

// The handshake (may be null) and internal messages not complete yet.
std::vector<RequestPtr> incomplete(const RequestPtr& handshake, const std::vector<RequestPtr>& messages);

}  // namespace partitioned
}  // namespace progsim::mpi
