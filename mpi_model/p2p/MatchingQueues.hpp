// A rank's matching state (MPI-4.1 §3.5): receives posted and not yet
// matched, in posting order, and arrived messages (eager data or RTS) that
// no receive matched yet, in arrival order. Matching takes the first entry
// that fits, which with in-order arrival per sender gives non-overtaking.
#pragma once

#include "core/Request.hpp"
#include "transport/Packet.hpp"

#include <list>
#include <optional>

namespace progsim::mpi {

// Does a receive for (source, tag) on `context` accept this message?
bool envelope_matches(int context, int source, int tag, const Packet& message);
// A message whose send a cancel withdrew (p2p/SendCancel.cpp): it matches
// nothing, even before the target took it out of its queue.
bool is_withdrawn(const Packet& message);

class MatchingQueues {
public:
  // The first posted receive that accepts `message` and was posted by
  // `horizon` (its post_time: a rank with deferred CPU debt posts ahead of
  // SimGrid's clock, and whoever matches at an earlier time must not see it
  // yet), removed from the queue. `later`, if given, receives the first
  // receive that would accept it but is posted after `horizon`.
  RequestPtr take_posted(const Packet& message, double horizon, RequestPtr* later = nullptr);
  // The first unexpected message a receive for (context, source, tag)
  // accepts; removed with take_unexpected, left in place with peek.
  // `receive`: the receive asking, if it is posted already (the messages
  // held for receives posted before it are not its).
  std::optional<Packet> take_unexpected(int context, int source, int tag, const Request* receive = nullptr);
  // After a forced receive matched: an unexpected message it held and the
  // first posted receive that now takes it, both removed (nullopt: none).
  std::optional<std::pair<RequestPtr, Packet>> take_released();
  const Packet* peek_unexpected(int context, int source, int tag) const;

  void post(const RequestPtr& receive)
  {
    forced_posted_ = forced_posted_ || receive->forced_match;
    posted_.push_back(receive);
  }
  bool remove_posted(const Request& receive);
  // Takes out the unexpected message of the same send (origin and id).
  bool remove_unexpected(const Packet& message);
  void add_unexpected(Packet message) { unexpected_.push_back(std::move(message)); }

  std::size_t posted_count() const { return posted_.size(); }
  std::size_t unexpected_count() const { return unexpected_.size(); }
  const std::list<Packet>& unexpected() const { return unexpected_; }

private:
  // A receive forced to one source (match-schedule, p2p/MessageRaces.hpp)
  // posted before `receive` (nullptr: any) whose own envelope accepts
  // `message`: had the message come before the forced one, that receive
  // would have taken it, so no later receive may.
  bool held(const Packet& message, const Request* receive) const;

  std::list<RequestPtr> posted_;
  bool forced_posted_ = false;  // some forced receive was posted: held() may hold
  std::list<Packet> unexpected_;
};

}  // namespace progsim::mpi
