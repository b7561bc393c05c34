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
    throw sim::InputError{"match-schedule: '" + entry + "' is not RANK:K=SOURCE or RANK:K=#INDEX"};
  return value;
}

}  // namespace

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
      throw sim::InputError{"match-schedule: '" + entry + "' is not RANK:K=SOURCE or RANK:K=#INDEX"};
    int rank = parse_int(entry.substr(0, colon), entry);
    int index = parse_int(entry.substr(colon + 1, equal - colon - 1), entry);
    std::string value = entry.substr(equal + 1);
    Choice c;
    c.index = !value.empty() && value[0] == '#';
    c.value = parse_int(c.index ? value.substr(1) : value, entry);
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
    unhonoured_.push_back(what + " is a wildcard receive, not MPI_Waitany");
    return;
  }
  if (recv.peer != MPI_ANY_SOURCE && recv.peer != c->value) {
    // MPI_ANY_TAG from one source: non-overtaking leaves no other sender.
    unhonoured_.push_back(what + " receives from source " + std::to_string(recv.peer) + " only");
    return;
  }
  recv.wildcard_source = recv.peer;
  recv.peer = c->value;
  recv.forced_match = true;
  pending_forced_.insert(key(rank, recv.decision));
}

void MessageRaces::consider(RaceDecision& d, std::uint64_t id, const Sent& message)
{
  if (d.waitany || message.dest != d.rank || message.context != d.context)
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

void MessageRaces::on_match(Request& recv, const Packet& message, double now)
{
  auto found = in_flight_.find(message.message_id);
  if (found == in_flight_.end())
    return;
  Sent sent = std::move(found->second);
  in_flight_.erase(found);
  int rank = recv.owner;
  for (RaceDecision& d : decisions_[static_cast<std::size_t>(rank)]) {
    consider(d, message.message_id, sent);
    if (d.waitany)
      for (const auto& [i, waited] : d.waiting)
        if (waited == &recv && sent.clock[static_cast<std::size_t>(rank)] < d.clock)
          d.alternatives.emplace(i, RaceDecision::Alternative{});
  }
  merge(rank, sent.clock);
  if (recv.decision == 0)
    return;
  RaceDecision d;
  d.rank = rank;
  d.index = recv.decision;
  d.call = recv.call;
  d.call_site = recv.call_site;
  d.context = recv.context_id;
  d.source = recv.forced_match ? recv.wildcard_source : recv.peer;
  d.tag = recv.tag;
  d.chosen = sent.src_local;
  d.chosen_world = sent.src_world;
  d.chosen_tag = sent.tag;
  d.time = now;
  d.clock = ++clocks_[static_cast<std::size_t>(rank)][static_cast<std::size_t>(rank)];
  d.forced = recv.forced_match;
  // Messages already arrived and still unmatched are alternatives now.
  for (const auto& [id, other] : in_flight_)
    consider(d, id, other);
  if (d.forced)
    pending_forced_.erase(key(rank, d.index));
  recv.decision = 0;
  if (record_)
    decisions_[static_cast<std::size_t>(rank)].push_back(std::move(d));
}

int MessageRaces::start_waitany(int rank, const std::vector<RequestPtr>& requests)
{
  int index = ++decisions_made_[static_cast<std::size_t>(rank)];
  const Choice* c = scheduled(rank, index);
  if (!c)
    return -1;
  std::string what = "rank " + std::to_string(rank) + "'s decision " + std::to_string(index);
  if (!c->index || c->value >= static_cast<int>(requests.size()) || !requests[static_cast<std::size_t>(c->value)]) {
    unhonoured_.push_back(what + " (MPI_Waitany) has no active request at index " + std::to_string(c->value));
    return -1;
  }
  pending_forced_.insert(key(rank, index));
  return c->value;
}

void MessageRaces::end_waitany(int rank, const char* call, std::uintptr_t site, const std::vector<RequestPtr>& requests,
                               int index, double now)
{
  RaceDecision d;
  d.rank = rank;
  d.index = decisions_made_[static_cast<std::size_t>(rank)];
  d.waitany = true;
  d.call = call;
  d.call_site = site;
  d.chosen = index;
  d.time = now;
  d.clock = ++clocks_[static_cast<std::size_t>(rank)][static_cast<std::size_t>(rank)];
  d.forced = pending_forced_.erase(key(rank, d.index)) > 0;
  // Another request already complete could have been returned; a receive
  // not complete yet could have completed first unless its message is sent
  // after this return is known to its sender (checked when it matches).
  // Sends not complete are not counted: when they complete is not the
  // program's to order.
  for (std::size_t i = 0; i < requests.size(); ++i) {
    const RequestPtr& r = requests[i];
    if (!r || static_cast<int>(i) == index)
      continue;
    if (r->complete())
      d.alternatives.emplace(static_cast<int>(i), RaceDecision::Alternative{});
    else if (r->kind == RequestKind::Recv && r->match_time < 0)
      d.waiting.emplace_back(static_cast<int>(i), r.get());
  }
  if (record_)
    decisions_[static_cast<std::size_t>(rank)].push_back(std::move(d));
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
    j["kind"] = d.waitany ? "waitany" : "receive";
    j["call"] = d.call;
    j["site"] = site_text(d.rank, d.call_site);
    j["time"] = d.time;
    j["forced"] = d.forced;
    nlohmann::ordered_json alternatives = nlohmann::ordered_json::array();
    if (d.waitany) {
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
