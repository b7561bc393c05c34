// Type matching of partitioned communication: the whole send (its
// partitions x count items of its datatype) and the whole receive follow
// the point-to-point rule (MPI-4.1 §4.2.2 matches one MPI_Psend_init with
// one MPI_Precv_init like a send and a receive; §3.3.1: the send's type
// signature is a prefix of the receive's; a longer send is a truncation,
// reported apart). The partition counts may differ on the two sides.
// Checked once per matched pair, when the receiver gets the sender's
// handshake, from the signature hash the handshake carries.
#pragma once

#include "core/Request.hpp"
#include "p2p/partitioned/InternalMessages.hpp"

#include <cstdint>

namespace progsim::mpi::partitioned {

// `recv` is the receiver's request as MPI_Precv_init made it; `recv_site` the
// call site mark of that call.
void check_type_match(const Handshake& sent, const Request& recv, std::uintptr_t recv_site);

}  // namespace progsim::mpi::partitioned
