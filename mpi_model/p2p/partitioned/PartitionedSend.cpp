#include "p2p/partitioned/PartitionedSend.hpp"

#include "p2p/PointToPoint.hpp"
#include "datatype/TypeSignature.hpp"
#include "diagnosis/CallSites.hpp"
#include "sim/CallScope.hpp"

#include <cstring>

namespace progsim::mpi {

PartitionedSend::PartitionedSend(PointToPoint& p2p, const RequestPtr& user, int partitions,
                                 std::int64_t partition_count, PartitionLayout layout)
    : p2p_(p2p),
      user_(user),
      base_(*user),
      partitions_(partitions),
      partition_count_(partition_count),
      layout_(layout),
      link_context_(partitioned::new_link_context()),
      ready_(static_cast<size_t>(partitions), false),
      ready_in_message_(static_cast<size_t>(layout.messages()), 0)
{
  if (base_.rare().partitioned)
    base_.writable_rare().partitioned.reset();
}

int PartitionedSend::init()
{
  if (base_.peer == MPI_PROC_NULL)
    return MPI_SUCCESS;
  partitioned::Handshake h;
  h.link_context = link_context_;
  h.partitions = layout_.partitions;
  h.partition_bytes = static_cast<std::int64_t>(layout_.partition_bytes);
  h.per_message = layout_.per_message;
  if (base_.type) {
    dt::EnvelopeSignature sig = dt::envelope_signature(*base_.type, base_.count);
    h.signature_hash = sig.hash;
    h.signature_elements = sig.elements;
  }
  h.send_site = call_site_mark(sim::calling_rank());  // init runs in the sender's MPI_Psend_init
  handshake_bytes_.resize(sizeof h);
  std::memcpy(handshake_bytes_.data(), &h, sizeof h);
  handshake_ = partitioned::internal_message(base_, RequestKind::Send, partitioned::handshake_context(base_.comm_context),
                                             base_.tag, handshake_bytes_.data(),
                                             static_cast<std::int64_t>(handshake_bytes_.size()), MPI_BYTE);
  // Keeps the handshake's bytes alive until it is sent, even if the request
  // is freed before (a rendezvous handshake reads them on CTS).
  handshake_->completion_listener = [self = shared_from_this()] {};
  return p2p_.start(handshake_);
}

int PartitionedSend::start()
{
  RequestPtr user = user_.lock();
  if (!user)
    return MPI_ERR_REQUEST;
  partitioned::begin_epoch(*user);
  std::fill(ready_.begin(), ready_.end(), false);
  std::fill(ready_in_message_.begin(), ready_in_message_.end(), 0);
  messages_.clear();
  pending_ = layout_.messages();
  if (base_.peer == MPI_PROC_NULL || pending_ == 0)
    partitioned::complete_user_request(*user);
  return MPI_SUCCESS;
}

void PartitionedSend::pready(int partition)
{
  ready_[static_cast<size_t>(partition)] = true;
  if (base_.peer == MPI_PROC_NULL)
    return;
  int message = layout_.message_of(partition);
  int& ready = ready_in_message_[static_cast<size_t>(message)];
  if (++ready == layout_.end_partition(message) - layout_.first_partition(message))
    send_message(message);
}

void PartitionedSend::send_message(int message)
{
  int first = layout_.first_partition(message);
  int n = layout_.end_partition(message) - first;
  std::int64_t offset = static_cast<std::int64_t>(first) * partition_count_ * (base_.type ? base_.type->extent() : 0);
  RequestPtr m = partitioned::internal_message(base_, RequestKind::Send, link_context_, message,
                                               static_cast<std::byte*>(base_.buf) + offset,
                                               static_cast<std::int64_t>(n) * partition_count_, base_.datatype);
  m->type = base_.type;  // held from MPI_Psend_init (MPI_Type_free may have happened since)
  m->completion_listener = [self = shared_from_this()] { self->message_done(); };
  messages_.push_back(m);
  p2p_.start(m);
}

void PartitionedSend::message_done()
{
  if (--pending_ > 0)
    return;
  if (RequestPtr user = user_.lock())
    partitioned::complete_user_request(*user);
}

std::string PartitionedSend::describe() const
{
  int ready = 0;
  for (bool r : ready_)
    ready += r ? 1 : 0;
  int complete = 0;
  for (const RequestPtr& m : messages_)
    complete += m->complete() ? 1 : 0;
  std::string comm = base_.comm_name.empty() ? "comm" : base_.comm_name;
  return std::string(base_.call) + "(dest=" + std::to_string(base_.peer) + ", tag=" + std::to_string(base_.tag) +
         ", comm=" + comm + ", " + std::to_string(partitions_) + " partitions of " +
         std::to_string(layout_.partition_bytes) + " bytes), " + std::to_string(ready) + " of " +
         std::to_string(partitions_) + " partitions ready (MPI_Pready), " + std::to_string(complete) + " of " +
         std::to_string(layout_.messages()) + " messages complete";
}

std::vector<RequestPtr> PartitionedSend::in_flight() const
{
  return partitioned::incomplete(handshake_, messages_);
}

std::string PartitionedSend::waits_for_peer() const
{
  return "rank " + std::to_string(base_.peer_world) + " to start its matching MPI_Precv_init (tag " +
         std::to_string(base_.tag) + ") with MPI_Start";
}

std::string PartitionedSend::waits_for_owner() const
{
  std::string missing;
  int count = 0;
  for (int p = 0; p < partitions_; ++p)
    if (!ready_[static_cast<size_t>(p)] && ++count <= 8)
      missing += (missing.empty() ? "" : ", ") + std::to_string(p);
  if (count == 0)
    return "";
  if (count > 8)
    missing += ", ... (" + std::to_string(count) + " partitions)";
  return "its own MPI_Pready of partition(s) " + missing +
         " (a partition not marked ready is never sent: MPI-4.1 §4.2.2)";
}

}  // namespace progsim::mpi
