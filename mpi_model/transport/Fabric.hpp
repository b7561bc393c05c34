// Moves packets between ranks' hosts with SimGrid's network model.
//
// A packet's transfer is a SimGrid communication between the two hosts
// (latency, bandwidth, sharing and topology from the platform). Each
// transfer is carried by a DMA engine: a pair of small daemon actors, a
// sender that moves to the source host and a receiver that moves to the
// destination host and always waits in get on the engine's mailbox. The
// sender puts the transfer there, waits for it and then hands the packet to
// the destination (the "arrival"). Engines are pooled and reused in LIFO
// order, so runs are deterministic; the pool grows to the largest number of
// packets in flight at once.
//
// A host has at most kEnginesPerHost packets in transfer, as a NIC has a
// bounded number of DMA queues: further packets wait in FIFO order for the
// next engine of that host to finish (without the bound, a program flooding
// a peer with nonblocking sends made one engine, and its stack mappings, per
// packet until the process ran out of memory mappings).
//
// Not Comm::sendto: SimGrid 3.32 keeps every detached (sendto) transfer in
// one list of the maestro and removes each finished one with a linear
// std::list::remove, so N transfers in flight at once (a collective over N
// ranks) cost O(N^2). A mailbox transfer is listed only by its two actors,
// one transfer each. One global pool rather than one per host: half the
// actors, as an engine pair migrates instead of staying on its hosts.
#pragma once

#include "transport/Packet.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Mailbox.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <deque>
#include <functional>
#include <memory>
#include <vector>

namespace progsim::mpi {

class Fabric {
public:
  static constexpr std::size_t kEnginesPerHost = 256;

  using ArrivalHandler = std::function<void(Packet&&)>;

  // on_landed runs after each arrival was handled (deadlock detection).
  Fabric(std::vector<simgrid::s4u::Host*> rank_hosts, ArrivalHandler on_arrival, std::function<void()> on_landed);
  ~Fabric();

  // Starts the transfer now (or queues it behind the host's busy engines);
  // the arrival handler runs when it ends. Callable from any actor.
  void send(Packet packet);
  std::size_t in_flight() const { return in_flight_; }
  std::uint64_t packets_sent() const { return packets_sent_; }
  std::uint64_t bytes_sent() const { return bytes_sent_; }
  std::size_t engines() const { return engines_.size(); }

private:
  struct DmaEngine {
    simgrid::s4u::SemaphorePtr start;
    Packet packet;
    simgrid::s4u::Mailbox* mailbox = nullptr;
    simgrid::s4u::ActorPtr receiver;
  };
  void run_engine(DmaEngine& engine);
  void assign(DmaEngine& engine, Packet&& packet);
  std::size_t host_of(int rank) const { return rank_host_index_[static_cast<size_t>(rank)]; }

  std::vector<simgrid::s4u::Host*> rank_hosts_;
  std::vector<std::size_t> rank_host_index_;  // rank -> index of its host
  ArrivalHandler on_arrival_;
  std::function<void()> on_landed_;
  std::vector<std::unique_ptr<DmaEngine>> engines_;
  std::vector<DmaEngine*> idle_;
  std::vector<std::size_t> busy_;              // per host: engines carrying its packets
  std::vector<std::deque<Packet>> waiting_;    // per host: packets waiting for an engine
  std::size_t in_flight_ = 0;
  std::uint64_t packets_sent_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace progsim::mpi
