#include "transport/Fabric.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>

#include <algorithm>

namespace sg4 = simgrid::s4u;

namespace progsim::mpi {

const char* to_string(PacketKind kind)
{
  switch (kind) {
    case PacketKind::Eager: return "EAGER";
    case PacketKind::Rts: return "RTS";
    case PacketKind::Cts: return "CTS";
    case PacketKind::Data: return "DATA";
    case PacketKind::Ack: return "ACK";
    case PacketKind::Fin: return "FIN";
  }
  return "?";
}

Fabric::Fabric(std::vector<sg4::Host*> rank_hosts, ArrivalHandler on_arrival, std::function<void()> on_landed)
    : rank_hosts_(std::move(rank_hosts)), on_arrival_(std::move(on_arrival)), on_landed_(std::move(on_landed))
{
}

Fabric::~Fabric() = default;

void Fabric::send(Packet packet)
{
  ++in_flight_;
  ++packets_sent_;
  bytes_sent_ += packet.wire_bytes;
  DmaEngine* engine;
  if (!idle_.empty()) {
    engine = idle_.back();
    idle_.pop_back();
  } else {
    engines_.push_back(std::make_unique<DmaEngine>());
    engine = engines_.back().get();
    engine->start = sg4::Semaphore::create(0);
    sg4::Host* host = rank_hosts_[static_cast<size_t>(packet.src)];
    sg4::ActorPtr actor = sg4::Actor::create("dma-" + std::to_string(engines_.size() - 1), host,
                                             [this, engine] { run_engine(*engine); });
    actor->daemonize();
  }
  engine->packet = std::move(packet);
  engine->start->release();
}

void Fabric::run_engine(DmaEngine& engine)
{
  for (;;) {
    engine.start->acquire();
    Packet packet = std::move(engine.packet);
    sg4::Host* from = rank_hosts_[static_cast<size_t>(packet.src)];
    sg4::Host* to = rank_hosts_[static_cast<size_t>(packet.dst)];
    // SimGrid cannot start a transfer of 0 bytes; headers make it at least 1.
    sg4::Comm::sendto(from, to, std::max<std::size_t>(packet.wire_bytes, 1));
    idle_.push_back(&engine);
    // Still counted in flight while the arrival is handled: handling may
    // yield (waking a rank is a simcall) before all its effects are done.
    on_arrival_(std::move(packet));
    --in_flight_;
    on_landed_();
  }
}

}  // namespace progsim::mpi
