// Message races (issue 16, docs/design/message-races.md). Where MPI lets a
// run choose — a wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) taking one of
// several messages, a wildcard probe seeing one of them, MPI_Waitany /
// MPI_Testany returning one of several completed requests, MPI_Waitsome /
// MPI_Testsome returning some of them — progsim, being deterministic, makes
// one choice. This records each such decision with the alternatives another
// correct execution could have made (--cfg match-record=yes), and forces
// given decisions to an alternative (--cfg match-schedule=...), for
// `progsim check` to explore.
//
// Alternatives of a receive or probe: a message S to rank r that its
// envelope accepts, not matched when the decision was made, and not
// causally after it (vector clocks carried by every message, internal ones
// too, and merged where messages match), the first such message of each
// sender only (non-overtaking, MPI-4.1 §3.5). Causality that travels outside
// messages (shared memory, the completion of a synchronous send) is not
// seen: such an alternative is then impossible, and its forced run ends with
// the forced decision never made, which labels it infeasible, not the
// program's fault.
//
// Nothing here exists unless one of the two settings asks for it.
#pragma once

#include "core/Request.hpp"
#include "transport/Packet.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

// What kind of call made a decision.
enum class DecisionKind {
  Receive,   // a wildcard receive: the message it took
  Probe,     // a wildcard MPI_Probe, Iprobe, Mprobe, Improbe: the message it saw
  Waitany,   // the index returned
  Testany,   // the index returned (a call returning flag = false decides nothing)
  Waitsome,  // the set of indices returned
  Testsome,  // the set of indices returned (none returned: no decision)
};
const char* to_string(DecisionKind kind);
// Whether the decision is which requests a completion call returns (else
// which message a receive or probe gets).
inline bool returns_requests(DecisionKind kind) { return kind >= DecisionKind::Waitany; }

// One decision of a run: rank's index-th wildcard receive, wildcard probe or
// call returning some of several requests.
struct RaceDecision {
  int rank = 0;
  int index = 0;  // 1-based, per rank, all kinds together in program order
  DecisionKind kind = DecisionKind::Receive;
  const char* call = "";
  std::uintptr_t call_site = 0;
  int context = 0;                   // the receive's envelope, as the program gave it
  int source = MPI_ANY_SOURCE;       // (local ranks)
  int tag = MPI_ANY_TAG;
  int chosen = -1;                   // local rank of the sender matched / index returned
  std::vector<int> chosen_set;       // Waitsome, Testsome: the indices returned
  int chosen_world = -1;             // world rank of the sender matched
  int chosen_tag = MPI_ANY_TAG;
  double time = 0;                   // simulated time of the decision
  std::uint32_t clock = 0;           // the rank's own vector clock entry at the decision
  bool forced = false;
  struct Alternative {
    std::uint64_t message = 0;  // the first eligible message of this sender (requests: 0)
    int world = -1;
    int tag = MPI_ANY_TAG;
  };
  // By local source / by index: that request alone (the *some forms: the
  // family explored is every singleton, docs/design/message-races.md).
  std::map<int, Alternative> alternatives;
  // Completion calls: receives not complete at the return, by index.
  std::vector<std::pair<int, const Request*>> waiting;
};

class MessageRaces {
public:
  // `schedule`: "R:K=S[,R:K=S...]": rank R's K-th decision matches or sees
  // local source S (a wildcard receive or probe) or, written "R:K=#I",
  // returns index I (MPI_Waitany, MPI_Testany), "R:K=#I+J+..." the indices
  // I, J, ... (MPI_Waitsome, MPI_Testsome). Throws sim::InputError when
  // malformed.
  MessageRaces(bool record, const std::string& schedule, int world_size);

  // A message leaves (program's or internal): its sender's clock travels.
  void on_send(const Request& send);
  // A receive starts. A program's wildcard receive is its rank's next
  // decision; a scheduled one is narrowed to its scheduled source
  // (Request::forced_match; its own envelope kept in wildcard_source).
  void on_post(Request& recv);
  // `message` matched `recv` at simulated time `now`.
  void on_match(Request& recv, const Packet& message, double now);
  // MPI_Mprobe / MPI_Improbe took `message` out of rank's queues: its match
  // (MPI-4.1 §3.8.2), MPI_Mrecv only receives it.
  void on_taken(int rank, const Packet& message);

  // A probe on rank `rank` for (source, tag): with a wildcard, the message
  // it sees is the rank's next decision. Returns the source it must see
  // (`source` unless forced; a nonblocking probe then finds nothing until
  // that source's message is there).
  int probe_source(int rank, int source, int tag);
  // The probe for the program's (source, tag) on `context` saw `seen`.
  void end_probe(int rank, const char* call, std::uintptr_t site, int context, int source, int tag, const Packet& seen,
                 double now);

  // A completion call (`kind` MPI_Waitany ... MPI_Testsome) on rank `rank`
  // over `requests`: the indices it must return, all of them complete
  // (empty: its own choice; a test procedure returns nothing until then).
  std::vector<int> forced_requests(int rank, DecisionKind kind, const std::vector<RequestPtr>& requests);
  // It returned `returned`: the rank's next decision.
  void end_completion(int rank, DecisionKind kind, const char* call, std::uintptr_t site,
                      const std::vector<RequestPtr>& requests, const std::vector<int>& returned, double now);

  // Some scheduled decision could not be honoured (its receive never
  // matched, its index was no request): the run is no execution of the
  // program the schedule describes.
  bool infeasible() const { return !pending_forced_.empty() || !unhonoured_.empty(); }
  std::vector<std::string> infeasible_reasons() const;
  // The report's "message_races": decisions in time order, with sites.
  nlohmann::ordered_json to_json(const std::function<std::string(int, std::uintptr_t)>& site_text) const;

private:
  struct Choice {
    bool index = false;       // "#I", "#I+J": indices of requests
    std::vector<int> values;  // the source, or the indices
  };
  struct Sent {
    int dest = 0;
    int context = 0;
    int src_local = 0;
    int src_world = 0;
    int tag = 0;
    std::vector<std::uint32_t> clock;
  };
  std::uint64_t key(int rank, int index) const
  {
    return static_cast<std::uint64_t>(static_cast<std::uint32_t>(rank)) << 32 | static_cast<std::uint32_t>(index);
  }
  const Choice* scheduled(int rank, int index) const;
  // `message` (id, what was sent) could have been taken by decision `d`
  // instead of what it took: an alternative.
  static void consider(RaceDecision& d, std::uint64_t id, const Sent& message);
  void merge(int rank, const std::vector<std::uint32_t>& clock);
  // `message_id` is matched on `rank`: no longer a candidate of later
  // decisions; one of the rank's earlier decisions, if not causally before
  // it; and its clock is merged. Returns whether it was a tracked message.
  bool matched(int rank, std::uint64_t message_id, const Request* recv);
  // Rank's decision `index` is made now: its clock tick, whether forced.
  RaceDecision decide(int rank, int index, DecisionKind kind, const char* call, std::uintptr_t site, double now);
  void record(RaceDecision&& d);
  void unhonoured(const std::string& why);

  bool record_;
  std::unordered_map<std::uint64_t, Choice> schedule_;
  std::vector<std::vector<std::uint32_t>> clocks_;  // per rank: its vector clock
  std::vector<int> decisions_made_;                 // per rank: decisions so far
  std::unordered_map<std::uint64_t, Sent> in_flight_;  // by message id, until matched
  std::vector<std::vector<RaceDecision>> decisions_;   // per rank
  std::set<std::uint64_t> pending_forced_;          // scheduled decisions reached, not yet made
  std::vector<std::string> unhonoured_;             // each reason once (test procedures repeat)
};

}  // namespace progsim::mpi
