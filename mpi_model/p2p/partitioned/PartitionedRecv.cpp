#include "p2p/partitioned/PartitionedRecv.hpp"

#include "MpiModel.hpp"
#include "datatype/Pack.hpp"
#include "p2p/PointToPoint.hpp"
#include "p2p/partitioned/TypeMatching.hpp"
#include "diagnosis/CallSites.hpp"
#include "sim/CallScope.hpp"

#include <algorithm>
#include <cstring>

namespace progsim::mpi {

PartitionedRecv::PartitionedRecv(PointToPoint& p2p, const RequestPtr& user, int partitions,
                                 std::size_t partition_bytes)
    : p2p_(p2p), user_(user), base_(*user), partitions_(partitions), partition_bytes_(partition_bytes)
{
  if (base_.rare().partitioned)
    base_.writable_rare().partitioned.reset();
}

int PartitionedRecv::init()
{
  if (base_.peer == MPI_PROC_NULL)
    return MPI_SUCCESS;
  call_site_ = call_site_mark(sim::calling_rank());  // init runs in the receiver's MPI_Precv_init
  handshake_bytes_.resize(sizeof(partitioned::Handshake));
  handshake_ = partitioned::internal_message(base_, RequestKind::Recv, partitioned::handshake_context(base_.comm_context),
                                             base_.tag, handshake_bytes_.data(),
                                             static_cast<std::int64_t>(handshake_bytes_.size()), MPI_BYTE);
  handshake_->completion_listener = [self = shared_from_this()] { self->on_handshake(); };
  return p2p_.start(handshake_);
}

void PartitionedRecv::on_handshake()
{
  partitioned::Handshake h;
  std::memcpy(&h, handshake_bytes_.data(), sizeof h);
  sender_.partitions = static_cast<int>(h.partitions);
  sender_.partition_bytes = static_cast<std::size_t>(h.partition_bytes);
  sender_.per_message = static_cast<int>(h.per_message);
  link_context_ = static_cast<int>(h.link_context);
  matched_ = true;
  partitioned::check_type_match(h, base_, call_site_);
  if (RequestPtr user = user_.lock())
    user->match_time = handshake_->match_time;
  if (started_)
    post_receives();
}

int PartitionedRecv::start()
{
  RequestPtr user = user_.lock();
  if (!user)
    return MPI_ERR_REQUEST;
  partitioned::begin_epoch(*user);
  started_ = true;
  messages_.clear();
  if (base_.peer == MPI_PROC_NULL) {
    user->status_source = MPI_PROC_NULL;
    user->status_tag = MPI_ANY_TAG;
    started_ = false;
    partitioned::complete_user_request(*user);
    return MPI_SUCCESS;
  }
  if (matched_)
    post_receives();
  return MPI_SUCCESS;
}

void PartitionedRecv::post_receives()
{
  int n = sender_.messages();
  message_arrived_.assign(static_cast<size_t>(n), false);
  pending_ = n;
  if (n == 0) {
    on_message(-1, {});
    return;
  }
  for (int m = 0; m < n; ++m) {
    auto data = std::make_shared<std::vector<std::byte>>(sender_.end_byte(m) - sender_.begin_byte(m));
    RequestPtr r = partitioned::internal_message(base_, RequestKind::Recv, link_context_, m, data->data(),
                                                 static_cast<std::int64_t>(data->size()), MPI_BYTE);
    r->completion_listener = [self = shared_from_this(), m, data] { self->on_message(m, *data); };
    messages_.push_back(r);
  }
  // Started after all are listed: a message already arrived completes its
  // receive inside start().
  std::vector<RequestPtr> to_start = messages_;
  for (const RequestPtr& r : to_start)
    p2p_.start(r);
}

void PartitionedRecv::on_message(int message, const std::vector<std::byte>& data)
{
  std::size_t capacity = base_.bytes;
  if (message >= 0) {
    std::size_t begin = sender_.begin_byte(message);
    std::size_t end = std::min(sender_.end_byte(message), capacity);
    // Under --check buffers the program's receive buffer is guarded until
    // MPI_Parrived reports each partition: the model's write, to the items
    // this message covers, is let through.
    if (end > begin) {
      auto size = static_cast<std::size_t>(base_.type->size());
      auto first = static_cast<std::int64_t>(begin / size);
      auto items = static_cast<std::int64_t>((end - 1) / size) - first + 1;
      MpiModel::instance().pending_buffers().model_access(base_.buf, *base_.type, first, items, true, [&] {
        dt::unpack_range(data.data(), static_cast<std::int64_t>(begin), static_cast<std::int64_t>(end - begin),
                         base_.buf, base_.count, *base_.type);
      });
    }
    message_arrived_[static_cast<size_t>(message)] = true;
    if (--pending_ > 0)
      return;
  }
  RequestPtr user = user_.lock();
  started_ = false;
  if (!user)
    return;
  std::size_t sent = sender_.total_bytes();
  user->status_source = base_.peer;
  user->status_tag = base_.tag;
  user->status_bytes = std::min(sent, capacity);
  // MPI-4.1 §4.2.2: both sides must describe the same total size; a larger
  // send is reported as a truncation, as for other receives.
  user->status_error = sent > capacity ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
  partitioned::complete_user_request(*user);
}

bool PartitionedRecv::arrived(int partition) const
{
  RequestPtr user = user_.lock();
  if (user && user->complete())
    return true;
  if (!matched_ || !started_ || messages_.empty())
    return false;
  int first = 0, last = -1;
  sender_.messages_covering(partition_bytes_ * static_cast<std::size_t>(partition),
                            partition_bytes_ * static_cast<std::size_t>(partition + 1), first, last);
  for (int m = first; m <= last; ++m)
    if (!message_arrived_[static_cast<size_t>(m)])
      return false;
  return true;
}

std::string PartitionedRecv::describe() const
{
  int arrived_count = 0;
  for (int p = 0; p < partitions_; ++p)
    arrived_count += arrived(p) ? 1 : 0;
  std::string comm = base_.comm_name.empty() ? "comm" : base_.comm_name;
  std::string text = std::string(base_.call) + "(source=" + std::to_string(base_.peer) + ", tag=" +
                     std::to_string(base_.tag) + ", comm=" + comm + ", " + std::to_string(partitions_) +
                     " partitions of " + std::to_string(partition_bytes_) + " bytes), ";
  if (!matched_)
    return text + "not matched yet: waiting for the MPI_Psend_init of rank " + std::to_string(base_.peer);
  return text + std::to_string(arrived_count) + " of " + std::to_string(partitions_) + " partitions arrived";
}

std::vector<RequestPtr> PartitionedRecv::in_flight() const
{
  return partitioned::incomplete(handshake_, messages_);
}

std::string PartitionedRecv::waits_for_peer() const
{
  return "rank " + std::to_string(base_.peer_world) +
         (matched_ ? " to mark the partitions of its matching MPI_Psend_init (tag " + std::to_string(base_.tag) +
                         ") ready (MPI_Start, MPI_Pready)"
                   : " to call the matching MPI_Psend_init (tag " + std::to_string(base_.tag) + ")");
}

std::string PartitionedRecv::waits_for_owner() const
{
  return "";
}

}  // namespace progsim::mpi
