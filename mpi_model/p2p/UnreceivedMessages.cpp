#include "p2p/UnreceivedMessages.hpp"

#include "core/Request.hpp"

#include <algorithm>

namespace progsim::mpi {

bool UnreceivedMessages::records(const Request& send)
{
  return send.message_id != 0 && send.peer_world >= 0 && send.context_id == send.comm_context;
}

void UnreceivedMessages::sent(const Request& send, const char* call, std::uintptr_t site)
{
  SentMessage& m = open_[send.message_id];
  m.id = send.message_id;
  m.source = send.owner;
  m.dest = send.peer_world;
  m.dest_local = send.peer;
  m.tag = send.tag;
  m.bytes = send.bytes;
  m.comm_name = send.comm_name;
  m.call = call;
  m.site = site;
  m.time = send.post_time;
}

std::vector<SentMessage> UnreceivedMessages::remaining() const
{
  std::vector<SentMessage> messages;
  messages.reserve(open_.size());
  for (const auto& entry : open_)
    messages.push_back(entry.second);
  std::sort(messages.begin(), messages.end(), [](const SentMessage& a, const SentMessage& b) { return a.id < b.id; });
  return messages;
}

}  // namespace progsim::mpi
