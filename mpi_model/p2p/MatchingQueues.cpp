#include "p2p/MatchingQueues.hpp"

#include <limits>

namespace progsim::mpi {

bool envelope_matches(int context, int source, int tag, const Packet& message)
{
  return message.context_id == context && (source == MPI_ANY_SOURCE || source == message.src_local) &&
         (tag == MPI_ANY_TAG || tag == message.tag);
}

bool is_withdrawn(const Packet& message)
{
  return message.origin && message.message_id != 0 && message.origin->withdrawn_message == message.message_id;
}

RequestPtr MatchingQueues::take_posted(const Packet& message, double horizon, RequestPtr* later)
{
  for (auto it = posted_.begin(); it != posted_.end(); ++it) {
    const Request& r = **it;
    if (r.forced_match && !envelope_matches(r.context_id, r.peer, r.tag, message) &&
        envelope_matches(r.context_id, r.wildcard_source, r.tag, message))
      return nullptr;  // held for the forced receive's own envelope (held())
    if (envelope_matches(r.context_id, r.peer, r.tag, message)) {
      if (r.post_time > horizon) {
        if (later && !*later)
          *later = *it;
        continue;
      }
      RequestPtr found = *it;
      posted_.erase(it);
      return found;
    }
  }
  return nullptr;
}

bool MatchingQueues::held(const Packet& message, const Request* receive) const
{
  for (const RequestPtr& r : posted_) {
    if (r.get() == receive)
      return false;
    if (r->forced_match && envelope_matches(r->context_id, r->wildcard_source, r->tag, message))
      return true;
  }
  return false;
}

std::optional<std::pair<RequestPtr, Packet>> MatchingQueues::take_released()
{
  for (auto m = unexpected_.begin(); m != unexpected_.end(); ++m) {
    if (is_withdrawn(*m))
      continue;
    RequestPtr r = take_posted(*m, std::numeric_limits<double>::infinity());
    if (!r)
      continue;
    Packet found = std::move(*m);
    unexpected_.erase(m);
    return std::make_pair(std::move(r), std::move(found));
  }
  return std::nullopt;
}

std::optional<Packet> MatchingQueues::take_unexpected(int context, int source, int tag, const Request* receive)
{
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it)
    if (envelope_matches(context, source, tag, *it) && !is_withdrawn(*it) &&
        !(forced_posted_ && held(*it, receive))) {
      Packet found = std::move(*it);
      unexpected_.erase(it);
      return found;
    }
  return std::nullopt;
}

const Packet* MatchingQueues::peek_unexpected(int context, int source, int tag) const
{
  // A probe does not see the messages held for a forced receive either:
  // in the execution simulated they have not arrived yet.
  for (const Packet& p : unexpected_)
    if (envelope_matches(context, source, tag, p) && !is_withdrawn(p) && !(forced_posted_ && held(p, nullptr)))
      return &p;
  return nullptr;
}

bool MatchingQueues::remove_unexpected(const Packet& message)
{
  for (auto it = unexpected_.begin(); it != unexpected_.end(); ++it)
    if (it->origin == message.origin && it->message_id == message.message_id) {
      unexpected_.erase(it);
      return true;
    }
  return false;
}

bool MatchingQueues::remove_posted(const Request& receive)
{
  for (auto it = posted_.begin(); it != posted_.end(); ++it)
    if (it->get() == &receive) {
      posted_.erase(it);
      return true;
    }
  return false;
}

}  // namespace progsim::mpi
