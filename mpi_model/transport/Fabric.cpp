#include "transport/Fabric.hpp"

#include "sim/ActingTime.hpp"

#include <simgrid/kernel/Timer.hpp>
#include <simgrid/kernel/resource/Action.hpp>
#include <simgrid/s4u/Comm.hpp>
#include <simgrid/s4u/Engine.hpp>
#include <simgrid/s4u/Link.hpp>

#include <algorithm>

namespace sg4 = simgrid::s4u;
namespace kr = simgrid::kernel::resource;
using simgrid::kernel::timer::Timer;

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

namespace {

// The fabric of the running simulation. SimGrid's signal cannot be
// disconnected: it is connected once per process and calls this one.
Fabric* current_fabric = nullptr;

}  // namespace

Fabric::Fabric(std::vector<sg4::Host*> rank_hosts, std::size_t transfers_per_host, ArrivalHandler on_arrival,
               std::function<void()> on_landed)
    : rank_hosts_(std::move(rank_hosts)),
      transfers_per_host_(transfers_per_host),
      on_arrival_(std::move(on_arrival)),
      on_landed_(std::move(on_landed))
{
  std::unordered_map<sg4::Host*, std::size_t> index;
  for (sg4::Host* host : rank_hosts_)
    rank_host_index_.push_back(index.emplace(host, index.size()).first->second);
  on_network_from_.assign(index.size(), 0);
  queued_at_.resize(index.size());
  static const bool connected = [] {
    sg4::Link::on_communication_state_change_cb([](kr::NetworkAction& action, kr::Action::State previous) {
      // SimGrid's installed headers declare NetworkAction without its
      // definition; it derives from Action alone, so the object is its
      // Action. Only the end of a running transfer matters: actions are
      // created running, and leave that state once, finished or failed.
      if (current_fabric && previous == kr::Action::State::STARTED)
        current_fabric->on_transfer_end(reinterpret_cast<kr::Action&>(action).get_activity());
    });
    return true;
  }();
  (void)connected;
  current_fabric = this;
}

Fabric::~Fabric()
{
  if (current_fabric == this)
    current_fabric = nullptr;
}

void Fabric::send(Packet&& packet)
{
  ++in_flight_;
  ++packets_sent_;
  bytes_sent_ += packet.wire_bytes;
  // Built in place (no temporary Departure in this frame: see arm_departures).
  Departure& d = departures_.emplace_back();
  d.time = sim::acting_time();
  d.order = departures_sent_++;
  d.packet = std::move(packet);
  std::push_heap(departures_.begin(), departures_.end(), departs_later);
  arm_departures();
}

void Fabric::arm_departures()
{
  if (departures_.empty())
    return;
  // One timer per distinct time: a departure earlier than the armed ones
  // gets its own, a later one waits for the timer that precedes it.
  double next = departures_.front().time;
  if (!armed_.empty() && *armed_.begin() <= next)
    return;
  armed_.insert(next);
  Timer::set(next, [this, next] {
    armed_.erase(next);
    depart_due();
  });
}

void Fabric::depart_due()
{
  double now = sg4::Engine::get_clock();
  while (!departures_.empty() && departures_.front().time <= now) {
    std::pop_heap(departures_.begin(), departures_.end(), departs_later);
    Packet packet = std::move(departures_.back().packet);
    departures_.pop_back();
    start_or_queue(std::move(packet));
  }
  arm_departures();
}

std::uint64_t Fabric::simulated_bytes(const Packet& packet)
{
  // SimGrid cannot start a transfer of 0 bytes; headers make it at least 1.
  return std::max<std::size_t>(packet.wire_bytes, 1);
}

void Fabric::start_or_queue(Packet packet)
{
  std::size_t host = rank_host_index_[static_cast<size_t>(packet.src)];
  if (on_network_from_[host] >= transfers_per_host_) {
    queued_at_[host].push_back(std::move(packet));
    return;
  }
  start_transfer(std::move(packet));
}

void Fabric::start_transfer(Packet packet)
{
  ++on_network_from_[rank_host_index_[static_cast<size_t>(packet.src)]];
  HostTransferRef transfer = start_host_transfer(rank_hosts_[static_cast<size_t>(packet.src)],
                                                 rank_hosts_[static_cast<size_t>(packet.dst)], simulated_bytes(packet));
  const void* key = transfer.get();
  on_network_.emplace(key, OnNetwork{std::move(packet), std::move(transfer)});
}

void Fabric::on_transfer_end(const void* activity)
{
  auto it = on_network_.find(activity);
  if (it == on_network_.end())
    return;  // not a packet's transfer
  std::size_t host = rank_host_index_[static_cast<size_t>(it->second.packet.src)];
  landed_.push_back(std::move(it->second.packet));
  ended_.push_back(std::move(it->second.transfer));
  on_network_.erase(it);
  if (--on_network_from_[host] < transfers_per_host_ && !queued_at_[host].empty())
    freed_hosts_.push_back(host);
  // Inside SimGrid's model update: hand the packet over once it is done, at
  // this same instant (timers run right after the update).
  if (!hand_over_armed_) {
    hand_over_armed_ = true;
    Timer::set(sg4::Engine::get_clock(), [this] {
      hand_over_armed_ = false;
      hand_over_landed();
    });
  }
}

void Fabric::release_transfers()
{
  // Moved out first: releasing a running transfer may signal its end.
  std::unordered_map<const void*, OnNetwork> on_network = std::move(on_network_);
  on_network_.clear();
  on_network.clear();
  ended_.clear();
  handed_over_.clear();
}

void Fabric::hand_over_landed()
{
  // SimGrid ends a transfer's object (CommImpl::post) right after the timers
  // of the instant its network action ended: the transfers that ended
  // before this hand-over are finished with, those of this one are not.
  handed_over_.clear();
  handed_over_.swap(ended_);
  // Hosts whose DMA queues freed up start their waiting departures first,
  // at this instant, in the order their transfers ended.
  for (std::size_t host : freed_hosts_)
    while (!queued_at_[host].empty() && on_network_from_[host] < transfers_per_host_) {
      Packet packet = std::move(queued_at_[host].front());
      queued_at_[host].pop_front();
      start_transfer(std::move(packet));
    }
  freed_hosts_.clear();
  while (!landed_.empty()) {
    Packet packet = std::move(landed_.front());
    landed_.pop_front();
    on_arrival_(std::move(packet));
    --in_flight_;
    on_landed_();
  }
}

}  // namespace progsim::mpi
