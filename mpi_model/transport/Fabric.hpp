// Moves packets between ranks' hosts with SimGrid's network model.
//
// A packet's transfer is a SimGrid host-to-host communication (latency,
// bandwidth, sharing and topology from the platform). No actor carries it:
// everything happens in SimGrid's maestro, so a message costs no context
// switch on either side.
//  * Departure: a packet leaves at the sender's clock (sim::acting_time: a
//    rank with deferred CPU debt is ahead of SimGrid's clock). Departures
//    wait in a queue ordered by (time, order of sending) and are started by
//    a kernel timer at their time, so transfers start in a deterministic
//    order and the sending rank never yields for them.
//  * A host's NIC has a bounded number of DMA queues (`--cfg
//    nic-transfers`, default 32): beyond that many transfers on the network
//    from one host, departures wait in FIFO order for one of them to end.
//    Besides being what a NIC does, the bound keeps SimGrid's sharing cheap:
//    each transfer's start and end solves the flows sharing its links, so a
//    program flooding a peer with eager sends (MPICH's pingping: 131,000
//    messages) or a partitioned send of 8,192 partitions would cost a solve
//    of thousands of flows per packet. 32 against 256 halves pingping's host
//    time and moves its simulated time by 0.3%: the link's bandwidth is
//    shared by fewer flows at once, the total stays bandwidth-bound.
//  * Arrival: SimGrid signals the end of the transfer's network action
//    (s4u::Link::on_communication_state_change) while it updates its
//    models; the packet is then handed to the destination by a kernel timer
//    at the same instant, once SimGrid's models are consistent again.
// Handlers therefore run in the maestro: they may wake ranks and send
// packets, never block (ProgressEngine::check_deadlock knows how to end a
// run from there).
#pragma once

#include "transport/HostTransfer.hpp"
#include "transport/Packet.hpp"

#include <simgrid/s4u/Host.hpp>

#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <set>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

class Fabric {
public:
  using ArrivalHandler = std::function<void(Packet&&)>;

  // on_landed runs after each arrival was handled (deadlock detection).
  // At most `transfers_per_host` transfers from one host are on the network.
  Fabric(std::vector<simgrid::s4u::Host*> rank_hosts, std::size_t transfers_per_host, ArrivalHandler on_arrival,
         std::function<void()> on_landed);
  ~Fabric();
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  // Sends the packet at the caller's simulated time (sim::acting_time); the
  // arrival handler runs when its transfer ends. Callable from any actor and
  // from the maestro.
  void send(Packet&& packet);
  // Packets sent and not yet handed to their destination (waiting to
  // depart, on the network, or landed and about to be handled).
  std::size_t in_flight() const { return in_flight_; }
  std::uint64_t packets_sent() const { return packets_sent_; }
  std::uint64_t bytes_sent() const { return bytes_sent_; }
  // World ranks a and b are on one host (their messages go through shared memory).
  bool same_host(int a, int b) const
  {
    return rank_host_index_[static_cast<size_t>(a)] == rank_host_index_[static_cast<size_t>(b)];
  }
  // SimGrid's network action of `activity` ended (its signal, in the maestro).
  void on_transfer_end(const void* activity);
  // Drops every transfer, on the network or ended: before SimGrid's engine
  // is destroyed (its objects must not outlive its models). Ends the
  // fabric's use.
  void release_transfers();

private:
  struct Departure {
    double time;
    std::uint64_t order;  // of sending: departures at one time keep it
    Packet packet;
  };
  // Min-heap order on (time, order).
  static bool departs_later(const Departure& a, const Departure& b)
  {
    return a.time != b.time ? a.time > b.time : a.order > b.order;
  }

  // Out of send()'s frame: send() runs at the bottom of the deepest path of
  // a replayed rank's stack (a collective's next round posting its sends),
  // whose depth decides how many pages each rank keeps resident (issue 19).
  [[gnu::noinline]] void arm_departures();
  void depart_due();
  // Starts the transfer, or queues it behind its host's busy DMA queues.
  void start_or_queue(Packet packet);
  void start_transfer(Packet packet);
  void hand_over_landed();
  static std::uint64_t simulated_bytes(const Packet& packet);

  std::vector<simgrid::s4u::Host*> rank_hosts_;
  std::size_t transfers_per_host_;
  std::vector<std::size_t> rank_host_index_;  // rank -> index of its host below
  std::vector<std::size_t> on_network_from_;  // per host: its transfers on the network
  std::vector<std::deque<Packet>> queued_at_;  // per host: departures waiting for a DMA queue
  std::vector<std::size_t> freed_hosts_;       // hosts with waiting departures that a landing freed
  ArrivalHandler on_arrival_;
  std::function<void()> on_landed_;

  std::vector<Departure> departures_;  // a heap (departs_later)
  std::uint64_t departures_sent_ = 0;
  std::set<double> armed_;  // times a departure timer is set for
  struct OnNetwork {
    Packet packet;
    HostTransferRef transfer;
  };
  // Transfers on the network, by their SimGrid activity (the signal's key).
  std::unordered_map<const void*, OnNetwork> on_network_;
  std::deque<Packet> landed_;  // ended transfers, to hand over in this order
  // Transfers that ended since the last hand-over, and those of the last
  // hand-over: SimGrid finishes with a transfer's object after the timers of
  // the instant it ended, so they are released at the next hand-over.
  std::vector<HostTransferRef> ended_, handed_over_;
  bool hand_over_armed_ = false;

  std::size_t in_flight_ = 0;
  std::uint64_t packets_sent_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace progsim::mpi
