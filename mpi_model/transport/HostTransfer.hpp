// A packet's transfer on SimGrid's network: a host-to-host communication
// (s4u::Comm::sendto_init) that the fabric, not SimGrid, keeps alive.
//
// Why: SimGrid 3.32 detaches every host-to-host communication on creation,
// which appends it to the maestro's activity list (a std::list), and removes
// it when it ends with std::list::remove, a walk of the whole list. With
// thousands of transfers in flight (every rank of a 1,024-rank allreduce
// sends at once) those walks were about a third of progsim's host time.
// Only the list is skipped: the transfer is started, timed and ended by
// SimGrid exactly as before (the fabric still learns its end from
// s4u::Link::on_communication_state_change). See docs/design/protocols.md.
#pragma once

#include <simgrid/forward.h>

#include <cstdint>

namespace progsim::mpi {

// Holds SimGrid's communication object; the last copy dropped frees it.
using HostTransferRef = simgrid::kernel::activity::ActivityImplPtr;

// Starts a transfer of `bytes` (> 0) from `from` to `to` at the current
// simulated time. The returned reference is the object's only owner: keep it
// until SimGrid has finished with the transfer (see Fabric::hand_over_landed).
HostTransferRef start_host_transfer(simgrid::s4u::Host* from, simgrid::s4u::Host* to, std::uint64_t bytes);

// Whether transfers skip the maestro's list (SimGrid 3.32 with the
// interposition in effect), for the unit test HostTransfer.*.
bool host_transfers_unlisted();

}  // namespace progsim::mpi
