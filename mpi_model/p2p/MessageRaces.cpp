#include "p2p/MessageRaces.hpp"

#include "sim/Diagnostics.hpp"

#include <algorithm>
#include <sstream>

namespace progsim::mpi {

namespace {

int parse_int(const std::string& text, const std::string& entry)
{
  std::size_t used = 0;
  int value = -1;
  try {
    value = std::stoi(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (text.empty() || used != text.size() || value < 0)
    throw sim::InputError{"match-schedule: '" + entry + "' is not RANK:K=SOURCE or RANK:K=#INDEX[+INDEX...]"};
  return value;
}

}  // namespace

const char* to_string(DecisionKind kind)
{
  switch (kind) {
    case DecisionKind::Receive: return "receive";
    case DecisionKind::Probe: return "probe";
    case DecisionKind::Waitany: return "waitany";
    case DecisionKind::Testany: return "testany";
    case DecisionKind::Waitsome: return "waitsome";
    case DecisionKind::Testsome: return "testsome";
  }
  return "?";
}

MessageRaces::MessageRaces(bool record, const std::string& schedule, int world_size)
    : record_(record),
      clocks_(static_cast<std::size_t>(world_size), std::vector<std::uint32_t>(static_cast<std::size_t>(world_size))),
      decisions_made_(static_cast<std::size_t>(world_size), 0),
      decisions_(static_cast<std::size_t>(world_size))
{
  std::stringstream in(schedule);
  std::string entry;
  while (std::getline(in, entry, ',')) {
    if (entry.empty())
      continue;
    std::size_t colon = entry.find(':'), equal = entry.find('=');
    if (colon == std::string::npos || equal == std::string::npos || equal < colon)
      throw sim::InputError{"match-schedule: '" + entry + "' is not RANK:K=SOURCE or RANK:K=#INDEX[+INDEX...]"};
    int rank = parse_int(entry.substr(0, colon), entry);
    int index = parse_int(entry.substr(colon + 1, equal - colon - 1), entry);
    std::string value = entry.substr(equal + 1);
    Choice c;
    c.index = !value.empty() && value[0] == '#';
    std::stringstream values(c.index ? value.substr(1) : value);
    std::string one;
    while (std::getline(values, one, '+'))  // "#I+J": a set of indices
      c.values.push_back(parse_int(one, entry));
    std::sort(c.values.begin(), c.values.end());
    c.values.erase(std::unique(c.values.begin(), c.values.end()), c.values.end());
    if (c.values.empty() || (!c.index && c.values.size() != 1))
      throw sim::InputError{"match-schedule: '" + entry + "' is not RANK:K=SOURCE or RANK:K=#INDEX[+INDEX...]"};
    if (rank >= world_size || index < 1)
      throw sim::InputError{"match-schedule: '" + entry + "': no such rank or decision (decisions count from 1)"};
    schedule_[key(rank, index)] = c;
  }
}

const MessageRaces::Choice* MessageRaces::scheduled(int rank, int index) const
{
  auto it = schedule_.find(key(rank, index));
  return it == schedule_.end() ? nullptr : &it->second;
}

void MessageRaces::merge(int rank, const std::vector<std::uint32_t>& clock)
{
  std::vector<std::uint32_t>& mine = clocks_[static_cast<std::size_t>(rank)];
  for (std::size_t i = 0; i < mine.size() && i < clock.size(); ++i)
    mine[i] = std::max(mine[i], clock[i]);
}

void MessageRaces::unhonoured(const std::string& why)
{
  if (std::find(unhonoured_.begin(), unhonoured_.end(), why) == unhonoured_.end())
    unhonoured_.push_back(why);
}

void MessageRaces::on_send(const Request& send)
{
  if (send.message_id == 0 || send.peer_world < 0)
    return;
  std::vector<std::uint32_t>& clock = clocks_[static_cast<std::size_t>(send.owner)];
  ++clock[static_cast<std::size_t>(send.owner)];
  in_flight_[send.message_id] = {send.peer_world, send.context_id, send.self_local, send.owner, send.tag, clock};
}

void MessageRaces::on_post(Request& recv)
{
  if (recv.forced_match) {  // a persistent receive started again: its own envelope first
    recv.peer = recv.wildcard_source;
    recv.forced_match = false;
  }
  recv.decision = 0;
  bool program = recv.context_id == recv.comm_context;
  if (!program || (recv.peer != MPI_ANY_SOURCE && recv.tag != MPI_ANY_TAG))
    return;
  int rank = recv.owner;
  recv.decision = ++decisions_made_[static_cast<std::size_t>(rank)];
  const Choice* c = scheduled(rank, recv.decision);
  if (!c)
    return;
  std::string what = "rank " + std::to_string(rank) + "'s decision " + std::to_string(recv.decision);
  if (c->index) {
    unhonoured(what + " is a wildcard receive, not a call returning requests");
    return;
  }
  if (recv.peer != MPI_ANY_SOURCE && recv.peer != c->values.front()) {
    // MPI_ANY_TAG from one source: non-overtaking leaves no other sender.
    unhonoured(what + " receives from source " + std::to_string(recv.peer) + " only");
    return;
  }
  recv.wildcard_source = recv.peer;
  recv.peer = c->values.front();
  recv.forced_match = true;
  pending_forced_.insert(key(rank, recv.decision));
}

void MessageRaces::consider(RaceDecision& d, std::uint64_t id, const Sent& message)
{
  if (returns_requests(d.kind) || message.dest != d.rank || message.context != d.context)
    return;
  if ((d.source != MPI_ANY_SOURCE && d.source != message.src_local) || (d.tag != MPI_ANY_TAG && d.tag != message.tag))
    return;
  // The same sender's later messages cannot overtake the one matched (§3.5);
  // a message sent after its sender learnt of the decision cannot be taken.
  if (message.src_local == d.chosen || message.clock[static_cast<std::size_t>(d.rank)] >= d.clock)
    return;
  auto [it, added] = d.alternatives.emplace(message.src_local, RaceDecision::Alternative{id, message.src_world, message.tag});
  if (!added && id < it->second.message)
    it->second = {id, message.src_world, message.tag};
}

bool MessageRaces::matched(int rank, std::uint64_t message_id, const Request* recv)
{
  auto found = in_flight_.find(message_id);
  if (found == in_flight_.end())
    return false;
  Sent sent = std::move(found->second);
  in_flight_.erase(found);
  for (RaceDecision& d : decisions_[static_cast<std::size_t>(rank)]) {
    consider(d, message_id, sent);
    for (const auto& [i, waited] : d.waiting)
      if (waited == recv && sent.clock[static_cast<std::size_t>(rank)] < d.clock)
        d.alternatives.emplace(i, RaceDecision::Alternative{});
  }
  merge(rank, sent.clock);
  return true;
}

RaceDecision MessageRaces::decide(int rank, int index, DecisionKind kind, const char* call, std::uintptr_t site,
                                  double now)
{
  RaceDecision d;
  d.rank = rank;
  d.index = index;
  d.kind = kind;
  d.call = call;
  d.call_site = site;
  d.time = now;
  d.clock = ++clocks_[static_cast<std::size_t>(rank)][static_cast<std::size_t>(rank)];
  d.forced = pending_forced_.erase(key(rank, index)) > 0;
  return d;
}

void MessageRaces::record(RaceDecision&& d)
{
  if (record_)
    decisions_[static_cast<std::size_t>(d.rank)].push_back(std::move(d));
}

void MessageRaces::on_match(Request& recv, const Packet& message, double now)
{
  if (!matched(recv.owner, message.message_id, &recv) || recv.decision == 0)
    return;
  RaceDecision d = decide(recv.owner, recv.decision, DecisionKind::Receive, recv.call, recv.call_site, now);
  d.context = recv.context_id;
  d.source = recv.forced_match ? recv.wildcard_source : recv.peer;
  d.tag = recv.tag;
  d.chosen = message.src_local;
  d.chosen_world = message.src;
  d.chosen_tag = message.tag;
  // Messages already arrived and still unmatched are alternatives now.
  for (const auto& [id, other] : in_flight_)
    consider(d, id, other);
  recv.decision = 0;
  record(std::move(d));
}

void MessageRaces::on_taken(int rank, const Packet& message)
{
  matched(rank, message.message_id, nullptr);
}

int MessageRaces::probe_source(int rank, int source, int tag)
{
  if (source != MPI_ANY_SOURCE && tag != MPI_ANY_TAG)
    return source;
  // A test procedure's decision is made only when it finds something: the
  // number is taken then (end_probe), the same in every run of the schedule.
  int index = decisions_made_[static_cast<std::size_t>(rank)] + 1;
  const Choice* c = scheduled(rank, index);
  if (!c)
    return source;
  std::string what = "rank " + std::to_string(rank) + "'s decision " + std::to_string(index);
  if (c->index) {
    unhonoured(what + " is a wildcard probe, not a call returning requests");
    return source;
  }
  if (source != MPI_ANY_SOURCE && source != c->values.front()) {
    unhonoured(what + " probes source " + std::to_string(source) + " only");
    return source;
  }
  pending_forced_.insert(key(rank, index));
  return c->values.front();
}

void MessageRaces::end_probe(int rank, const char* call, std::uintptr_t site, int context, int source, int tag,
                             const Packet& seen, double now)
{
  if (source != MPI_ANY_SOURCE && tag != MPI_ANY_TAG)
    return;
  RaceDecision d = decide(rank, ++decisions_made_[static_cast<std::size_t>(rank)], DecisionKind::Probe, call, site, now);
  d.context = context;
  d.source = source;
  d.tag = tag;
  d.chosen = seen.src_local;
  d.chosen_world = seen.src;
  d.chosen_tag = seen.tag;
  // What it saw stays unmatched (but for MPI_Mprobe's): the sender's other
  // messages are behind it (§3.5); the other senders' are alternatives.
  for (const auto& [id, other] : in_flight_)
    consider(d, id, other);
  record(std::move(d));
}

std::vector<int> MessageRaces::forced_requests(int rank, DecisionKind kind, const std::vector<RequestPtr>& requests)
{
  int index = decisions_made_[static_cast<std::size_t>(rank)] + 1;  // taken when it returns (end_completion)
  const Choice* c = scheduled(rank, index);
  if (!c)
    return {};
  std::string what = "rank " + std::to_string(rank) + "'s decision " + std::to_string(index) + " (" +
                     to_string(kind) + ")";
  bool set = kind == DecisionKind::Waitsome || kind == DecisionKind::Testsome;
  if (!c->index) {
    unhonoured(what + " returns requests, not a message");
    return {};
  }
  if (!set && c->values.size() != 1) {
    unhonoured(what + " returns one request, not " + std::to_string(c->values.size()));
    return {};
  }
  bool ready = true;
  for (int i : c->values) {
    if (i >= static_cast<int>(requests.size()) || !requests[static_cast<std::size_t>(i)]) {
      unhonoured(what + " has no active request at index " + std::to_string(i));
      return {};
    }
    ready = ready && requests[static_cast<std::size_t>(i)]->complete();
  }
  // A test procedure waiting for its forced choice returns nothing: an
  // execution where the other complete requests are late. Not if the
  // program knows one completed (MPI_Request_get_status said so, or it
  // completed a generalized request itself): then it must return something
  // (MPI-4.1 §3.7.5). A blocking call may wait: its process was slow.
  bool test = kind == DecisionKind::Testany || kind == DecisionKind::Testsome;
  for (std::size_t i = 0; test && !ready && i < requests.size(); ++i) {
    const RequestPtr& r = requests[i];
    if (r && r->complete() && (r->completion_seen || r->kind == RequestKind::Generalized)) {
      unhonoured(what + " must return something: the program knows request " + std::to_string(i) +
                 " completed");
      return {};
    }
  }
  pending_forced_.insert(key(rank, index));
  return c->values;
}

void MessageRaces::end_completion(int rank, DecisionKind kind, const char* call, std::uintptr_t site,
                                  const std::vector<RequestPtr>& requests, const std::vector<int>& returned, double now)
{
  RaceDecision d = decide(rank, ++decisions_made_[static_cast<std::size_t>(rank)], kind, call, site, now);
  bool set = kind == DecisionKind::Waitsome || kind == DecisionKind::Testsome;
  if (set)
    d.chosen_set = returned;
  else
    d.chosen = returned.front();
  // Another request already complete could have been returned; a receive
  // not complete yet could have completed first unless its message is sent
  // after this return is known to its sender (checked when it matches).
  // Sends not complete are not counted: when they complete is not the
  // program's to order. Waitsome and Testsome may return any non-empty
  // subset of the complete requests (MPI-4.1 §3.7.5): of the 2^n, the
  // alternatives are the singletons, each request returned alone (first),
  // which is what a program assuming it gets them all, or in index order,
  // gets wrong.
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const RequestPtr& r = requests[i];
    if (!r)
      continue;
    if (std::find(returned.begin(), returned.end(), static_cast<int>(i)) != returned.end()) {
      if (set && returned.size() > 1)
        d.alternatives.emplace(static_cast<int>(i), RaceDecision::Alternative{});
    } else if (r->complete()) {
      d.alternatives.emplace(static_cast<int>(i), RaceDecision::Alternative{});
    } else if (r->kind == RequestKind::Recv && r->match_time < 0) {
      d.waiting.emplace_back(static_cast<int>(i), r.get());
    }
  }
  record(std::move(d));
}

std::vector<std::string> MessageRaces::infeasible_reasons() const
{
  std::vector<std::string> reasons = unhonoured_;
  for (std::uint64_t k : pending_forced_)
    reasons.push_back("rank " + std::to_string(k >> 32) + "'s decision " + std::to_string(k & 0xffffffffu) +
                      " never got the match it was forced to");
  return reasons;
}

nlohmann::ordered_json MessageRaces::to_json(const std::function<std::string(int, std::uintptr_t)>& site_text) const
{
  std::vector<RaceDecision> all;
  for (const auto& per_rank : decisions_)
    for (RaceDecision d : per_rank) {
      // Messages never matched could have been taken too.
      for (const auto& [id, message] : in_flight_)
        consider(d, id, message);
      all.push_back(std::move(d));
    }
  std::stable_sort(all.begin(), all.end(), [](const RaceDecision& a, const RaceDecision& b) {
    return a.time != b.time ? a.time < b.time : a.rank != b.rank ? a.rank < b.rank : a.index < b.index;
  });
  nlohmann::ordered_json decisions = nlohmann::ordered_json::array();
  for (const RaceDecision& d : all) {
    nlohmann::ordered_json j;
    j["rank"] = d.rank;
    j["decision"] = d.index;
    j["kind"] = to_string(d.kind);
    j["call"] = d.call;
    j["site"] = site_text(d.rank, d.call_site);
    j["time"] = d.time;
    j["forced"] = d.forced;
    nlohmann::ordered_json alternatives = nlohmann::ordered_json::array();
    if (d.kind == DecisionKind::Waitsome || d.kind == DecisionKind::Testsome) {
      j["chosen"] = {{"indices", d.chosen_set}};
      for (const auto& [i, a] : d.alternatives)
        alternatives.push_back({{"indices", nlohmann::ordered_json::array({i})}});
    } else if (returns_requests(d.kind)) {
      j["chosen"] = {{"index", d.chosen}};
      for (const auto& [i, a] : d.alternatives)
        alternatives.push_back({{"index", i}});
    } else {
      j["envelope"] = {{"source", d.source}, {"tag", d.tag}};
      j["chosen"] = {{"source", d.chosen}, {"world", d.chosen_world}, {"tag", d.chosen_tag}};
      for (const auto& [s, a] : d.alternatives)
        alternatives.push_back({{"source", s}, {"world", a.world}, {"tag", a.tag}});
    }
    j["alternatives"] = alternatives;
    decisions.push_back(j);
  }
  nlohmann::ordered_json out;
  out["decisions"] = decisions;
  std::vector<std::string> reasons = infeasible_reasons();
  out["infeasible"] = !reasons.empty();
  out["infeasible_reasons"] = reasons;
  return out;
}

}  // namespace progsim::mpi
