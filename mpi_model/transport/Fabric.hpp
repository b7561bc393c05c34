// Moves packets between ranks' hosts with SimGrid's network model.
//
// A packet's transfer is a SimGrid communication between the two hosts
// (latency, bandwidth, sharing and topology from the platform). Each
// transfer is carried by a DMA engine: a small daemon actor taken from a
// pool, which waits for the transfer and then hands the packet to the
// destination (the "arrival"). The pool grows to the largest number of
// packets in flight at once; idle engines are reused in LIFO order, so runs
// are deterministic.
#pragma once

#include "transport/Packet.hpp"

#include <simgrid/s4u/Host.hpp>
#include <simgrid/s4u/Semaphore.hpp>

#include <functional>
#include <memory>
#include <vector>

namespace progsim::mpi {

class Fabric {
public:
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
  std::size_t engines() const { return engines_.size(); }

private:
  struct DmaEngine {
    simgrid::s4u::SemaphorePtr start;
    Packet packet;
  };
  void run_engine(DmaEngine& engine);

  std::vector<simgrid::s4u::Host*> rank_hosts_;
  ArrivalHandler on_arrival_;
  std::function<void()> on_landed_;
  std::vector<std::unique_ptr<DmaEngine>> engines_;
  std::vector<DmaEngine*> idle_;
  std::size_t in_flight_ = 0;
  std::uint64_t packets_sent_ = 0;
  std::uint64_t bytes_sent_ = 0;
};

}  // namespace progsim::mpi
