#include "transport/Fabric.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

#include <algorithm>
#include <unordered_map>

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
  std::unordered_map<sg4::Host*, std::size_t> index;
  for (sg4::Host* host : rank_hosts_)
    rank_host_index_.push_back(index.emplace(host, index.size()).first->second);
  busy_.resize(index.size());
  waiting_.resize(index.size());
}

Fabric::~Fabric() = default;

void Fabric::send(Packet packet)
{
  ++in_flight_;
  ++packets_sent_;
  bytes_sent_ += packet.wire_bytes;
  std::size_t host = host_of(packet.src);
  if (busy_[host] == kEnginesPerHost) {
    waiting_[host].push_back(std::move(packet));
    return;
  }
  ++busy_[host];
  DmaEngine* engine;
  if (!idle_.empty()) {
    engine = idle_.back();
    idle_.pop_back();
  } else {
    engines_.push_back(std::make_unique<DmaEngine>());
    engine = engines_.back().get();
    engine->start = sg4::Semaphore::create(0);
    std::string name = "dma-" + std::to_string(engines_.size() - 1);
    engine->mailbox = sg4::Mailbox::by_name(name);
    sg4::Mailbox* mailbox = engine->mailbox;
    // Always blocked in get, so that a put starts its transfer at once.
    engine->receiver = sg4::Actor::create(name + "-rx", rank_hosts_[static_cast<size_t>(packet.dst)], [mailbox] {
      for (;;)
        mailbox->get<void>();
    });
    engine->receiver->daemonize();
    sg4::Actor::create(name, rank_hosts_[static_cast<size_t>(packet.src)], [this, engine] {
      run_engine(*engine);
    })->daemonize();
  }
  assign(*engine, std::move(packet));
}

void Fabric::assign(DmaEngine& engine, Packet&& packet)
{
  engine.packet = std::move(packet);
  engine.start->release();
}

void Fabric::run_engine(DmaEngine& engine)
{
  for (;;) {
    engine.start->acquire();
    Packet packet = std::move(engine.packet);
    // A mailbox transfer goes from the sender's host to the receiver's.
    sg4::Host* from = rank_hosts_[static_cast<size_t>(packet.src)];
    sg4::Host* to = rank_hosts_[static_cast<size_t>(packet.dst)];
    if (sg4::this_actor::get_host() != from)
      sg4::this_actor::set_host(from);
    if (engine.receiver->get_host() != to)
      engine.receiver->set_host(to);
    // SimGrid cannot start a transfer of 0 bytes; headers make it at least 1.
    // The payload pointer only has to be non-null: the packet stays here.
    engine.mailbox->put(&engine, std::max<std::size_t>(packet.wire_bytes, 1));
    std::size_t host = host_of(packet.src);
    if (waiting_[host].empty()) {
      --busy_[host];
      idle_.push_back(&engine);
    } else {
      Packet next = std::move(waiting_[host].front());
      waiting_[host].pop_front();
      assign(engine, std::move(next));
    }
    // Still counted in flight while the arrival is handled: handling may
    // yield (waking a rank is a simcall) before all its effects are done.
    on_arrival_(std::move(packet));
    --in_flight_;
    on_landed_();
  }
}

}  // namespace progsim::mpi
