#include "transport/Fabric.hpp"

#include <simgrid/s4u/Actor.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Mailbox.hpp>

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
    case PacketKind::Withdraw: return "WITHDRAW";
    case PacketKind::WithdrawReply: return "WITHDRAW-REPLY";
    case PacketKind::Rma: return "RMA";
  }
  return "?";
}

Fabric::Fabric(std::vector<sg4::Host*> rank_hosts, ArrivalHandler on_arrival, std::function<void()> on_landed)
    : rank_hosts_(std::move(rank_hosts)), on_arrival_(std::move(on_arrival)), on_landed_(std::move(on_landed))
{
  std::unordered_map<sg4::Host*, std::size_t> index;
  for (sg4::Host* host : rank_hosts_)
    rank_host_index_.push_back(index.emplace(host, index.size()).first->second);
  idle_.resize(index.size());
  idle_receivers_.resize(index.size());
  engines_per_host_.resize(index.size());
  waiting_.resize(index.size());
}

Fabric::~Fabric() = default;

void Fabric::send(Packet packet)
{
  ++in_flight_;
  ++packets_sent_;
  bytes_sent_ += packet.wire_bytes;
  std::size_t host = rank_host_index_[static_cast<size_t>(packet.src)];
  auto transfer = std::make_unique<Transfer>();
  transfer->packet = std::move(packet);
  // A transfer starts from the host of the actor that puts it: the caller
  // can put directly only from the source host (not for data a target
  // pulls, or when called from the maestro).
  bool caller_on_source = !sg4::Actor::is_maestro() &&
                          sg4::this_actor::get_host() == rank_hosts_[static_cast<size_t>(transfer->packet.src)];
  if (caller_on_source && detached_in_flight_ < kDirectTransfers && waiting_[host].empty()) {
    ++detached_in_flight_;
    transfer->detached = true;
    ReceiveEngine* receiver = take_receiver(transfer->packet.dst);
    std::uint64_t bytes = simulated_bytes(transfer->packet);
    receiver->mailbox->put_init(transfer.release(), bytes)->detach();
  } else if (DmaEngine* engine = take_engine(transfer->packet.src)) {
    assign(*engine, std::move(transfer));
  } else {
    waiting_[host].push_back(std::move(transfer));
  }
}

std::uint64_t Fabric::simulated_bytes(const Packet& packet)
{
  // SimGrid cannot start a transfer of 0 bytes; headers make it at least 1.
  return std::max<std::size_t>(packet.wire_bytes, 1);
}

void Fabric::assign(DmaEngine& engine, std::unique_ptr<Transfer> transfer)
{
  engine.receiver = take_receiver(transfer->packet.dst);
  engine.transfer = std::move(transfer);
  engine.start->release();
}

Fabric::DmaEngine* Fabric::take_engine(int src)
{
  std::size_t host = rank_host_index_[static_cast<size_t>(src)];
  std::vector<DmaEngine*>& idle = idle_[host];
  if (!idle.empty()) {
    DmaEngine* engine = idle.back();
    idle.pop_back();
    return engine;
  }
  if (engines_per_host_[host] == kEnginesPerHost)
    return nullptr;
  ++engines_per_host_[host];
  engines_.push_back(std::make_unique<DmaEngine>());
  DmaEngine* engine = engines_.back().get();
  engine->start = sg4::Semaphore::create(0);
  sg4::ActorPtr actor = sg4::Actor::create("dma-" + std::to_string(engines_.size() - 1),
                                           rank_hosts_[static_cast<size_t>(src)], [this, engine] { run_engine(*engine); });
  actor->daemonize();
  return engine;
}

Fabric::ReceiveEngine* Fabric::take_receiver(int dst)
{
  std::size_t host = rank_host_index_[static_cast<size_t>(dst)];
  std::vector<ReceiveEngine*>& idle = idle_receivers_[host];
  if (!idle.empty()) {
    ReceiveEngine* receiver = idle.back();
    idle.pop_back();
    return receiver;
  }
  receivers_.push_back(std::make_unique<ReceiveEngine>());
  ReceiveEngine* receiver = receivers_.back().get();
  std::string name = "dma-rx-" + std::to_string(receivers_.size() - 1);
  receiver->mailbox = sg4::Mailbox::by_name(name);
  sg4::ActorPtr actor = sg4::Actor::create(name, rank_hosts_[static_cast<size_t>(dst)],
                                           [this, receiver, host] { run_receiver(*receiver, host); });
  actor->daemonize();
  return receiver;
}

void Fabric::run_engine(DmaEngine& engine)
{
  for (;;) {
    engine.start->acquire();
    std::size_t host = rank_host_index_[static_cast<size_t>(engine.transfer->packet.src)];
    std::uint64_t bytes = simulated_bytes(engine.transfer->packet);
    engine.receiver->mailbox->put(engine.transfer.release(), bytes);
    if (waiting_[host].empty()) {
      idle_[host].push_back(&engine);
    } else {
      std::unique_ptr<Transfer> next = std::move(waiting_[host].front());
      waiting_[host].pop_front();
      assign(engine, std::move(next));
    }
  }
}

void Fabric::run_receiver(ReceiveEngine& receiver, std::size_t host)
{
  // Always blocked in get when idle, so that a put starts its transfer at once.
  for (;;) {
    std::unique_ptr<Transfer> transfer(receiver.mailbox->get<Transfer>());
    if (transfer->detached)
      --detached_in_flight_;
    // Still counted in flight while the arrival is handled: handling may
    // yield (waking a rank is a simcall) before all its effects are done.
    on_arrival_(std::move(transfer->packet));
    --in_flight_;
    idle_receivers_[host].push_back(&receiver);
    on_landed_();
  }
}

}  // namespace progsim::mpi
