// Moves packets between ranks' hosts with SimGrid's network model.
//
// A packet's transfer is a SimGrid communication between the two hosts
// (latency, bandwidth, sharing and topology from the platform), put into the
// mailbox of a receive engine: a daemon actor on the destination host,
// taken from that host's pool and blocked in get, so that the transfer
// starts at once. When the transfer ends, the receive engine hands the
// packet to the destination (the "arrival") and goes back to its pool.
//
// Who puts the transfer:
//  * directly the calling actor, as a detached communication, when it runs
//    on the source host and few detached transfers are in flight (the cheap
//    path: no actor wakes up on the sending side, which is most of a small
//    message's host cost);
//  * otherwise a DMA engine: a daemon actor of the source host's pool that
//    puts the transfer and waits for it. SimGrid 3.32 lists every detached
//    transfer in one list of the maestro and removes each finished one with
//    a linear std::list::remove, which made a collective over N ranks (N
//    transfers in flight at once) cost O(N^2); a transfer put by an engine is
//    listed only by its two actors. A host has at most kEnginesPerHost DMA
//    engines, as a NIC has a bounded number of DMA queues: further packets
//    wait in FIFO order for the next free engine (without the bound, a
//    program flooding a peer with nonblocking sends made one actor, and one
//    stack mapping, per packet until the process ran out of memory mappings).
// Both paths start the transfer at the same simulated time; only host cost
// differs. Idle engines are reused in LIFO order, so runs are deterministic.
#pragma once

#include "transport/Packet.hpp"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

class Fabric {
public:
  static constexpr std::size_t kEnginesPerHost = 256;
  // Detached transfers in flight beyond which DMA engines put the transfers.
  static constexpr std::size_t kDirectTransfers = 128;

  using ArrivalHandler = std::function<void(Packet&&)>;

  // on_landed runs after each arrival was handled (deadlock detection).
  Fabric(std::vector<simgrid::s4u::Host*> rank_hosts, ArrivalHandler on_arrival, std::function<void()> on_landed);
  ~Fabric();

  // Starts the transfer now; the arrival handler runs when it ends.
  // Callable from any actor.
  void send(Packet packet);
  std::size_t in_flight() const { return in_flight_; }
  std::uint64_t packets_sent() const { return packets_sent_; }
  std::uint64_t bytes_sent() const { return bytes_sent_; }
  // Sending DMA engines created (receive engines are as many or fewer).
  std::size_t engines() const { return engines_.size(); }

private:
  // What a transfer carries (the packet stays on the simulator's heap).
  struct Transfer {
    Packet packet;
    bool detached = false;
  };
  struct ReceiveEngine {
    simgrid::s4u::Mailbox* mailbox = nullptr;
  };
  struct DmaEngine {
    simgrid::s4u::SemaphorePtr start;
    std::unique_ptr<Transfer> transfer;
    ReceiveEngine* receiver = nullptr;
  };
  void run_engine(DmaEngine& engine);
  void run_receiver(ReceiveEngine& receiver, std::size_t host);
  // An idle or new engine of src's host; nullptr when all are busy.
  DmaEngine* take_engine(int src);
  void assign(DmaEngine& engine, std::unique_ptr<Transfer> transfer);
  static std::uint64_t simulated_bytes(const Packet& packet);
  ReceiveEngine* take_receiver(int dst);

  std::vector<simgrid::s4u::Host*> rank_hosts_;
  std::vector<std::size_t> rank_host_index_;  // rank -> index of its host in the pools
  ArrivalHandler on_arrival_;
  std::function<void()> on_landed_;
  std::vector<std::unique_ptr<DmaEngine>> engines_;
  std::vector<std::unique_ptr<ReceiveEngine>> receivers_;
  std::vector<std::vector<DmaEngine*>> idle_;               // per host
  std::vector<std::vector<ReceiveEngine*>> idle_receivers_;  // per host
  std::vector<std::size_t> engines_per_host_;
  std::vector<std::deque<std::unique_ptr<Transfer>>> waiting_;  // per host: waiting for an engine
  std::size_t in_flight_ = 0;
  std::size_t detached_in_flight_ = 0;
  std::uint64_t packets_sent_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace progsim::mpi
