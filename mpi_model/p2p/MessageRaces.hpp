// Message races (issue 16, docs/design/message-races.md). Where MPI lets a
// run choose — a wildcard receive (MPI_ANY_SOURCE, MPI_ANY_TAG) taking one of
// several messages, MPI_Waitany returning one of several completed requests —
// progsim, being deterministic, makes one choice. This records each such
// decision with the alternatives another correct execution could have made
// (--cfg match-record=yes), and forces given decisions to an alternative
// (--cfg match-schedule=...), for `progsim check` to explore.
//
// Alternatives: a message S to rank r that the receive's envelope accepts,
// not matched when the receive matched, and not causally after the match
// (vector clocks carried by every message, internal ones too, and merged
// where messages match), the first such message of each sender only
// (non-overtaking, MPI-4.1 §3.5). Causality that travels outside messages
// (shared memory, the completion of a synchronous send) is not seen: such an
// alternative is then impossible, and its forced run ends with the forced
// receive never matched, which labels it infeasible, not the program's fault.
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

// One decision of a run: rank's index-th wildcard receive or MPI_Waitany.
struct RaceDecision {
  int rank = 0;
  int index = 0;  // 1-based, per rank, wildcard receives and MPI_Waitany calls together
  bool waitany = false;
  const char* call = "";
  std::uintptr_t call_site = 0;
  int context = 0;                   // the receive's envelope, as the program gave it
  int source = MPI_ANY_SOURCE;       // (local ranks)
  int tag = MPI_ANY_TAG;
  int chosen = -1;                   // local rank of the sender matched / index returned
  int chosen_world = -1;             // world rank of the sender matched
  int chosen_tag = MPI_ANY_TAG;
  double time = 0;                   // simulated time of the decision
  std::uint32_t clock = 0;           // the rank's own vector clock entry at the decision
  bool forced = false;
  struct Alternative {
    std::uint64_t message = 0;  // the first eligible message of this sender (waitany: 0)
    int world = -1;
    int tag = MPI_ANY_TAG;
  };
  std::map<int, Alternative> alternatives;  // by local source / by index (waitany)
  // MPI_Waitany: receives not complete at its return, by index.
  std::vector<std::pair<int, const Request*>> waiting;
};

class MessageRaces {
public:
  // `schedule`: "R:K=S[,R:K=S...]": rank R's K-th decision matches local
  // source S (a wildcard receive) or, written "R:K=#I", returns index I
  // (MPI_Waitany). Throws sim::InputError when malformed.
  MessageRaces(bool record, const std::string& schedule, int world_size);

  // A message leaves (program's or internal): its sender's clock travels.
  void on_send(const Request& send);
  // A receive starts. A program's wildcard receive is its rank's next
  // decision; a scheduled one is narrowed to its scheduled source
  // (Request::forced_match; its own envelope kept in wildcard_source).
  void on_post(Request& recv);
  // `message` matched `recv` at simulated time `now`.
  void on_match(Request& recv, const Packet& message, double now);
  // MPI_Waitany on rank `rank` over `requests`: its next decision; returns
  // the index it must return (-1: free choice).
  int start_waitany(int rank, const std::vector<RequestPtr>& requests);
  void end_waitany(int rank, const char* call, std::uintptr_t site, const std::vector<RequestPtr>& requests,
                   int index, double now);

  // Some scheduled decision could not be honoured (its receive never
  // matched, its index was no request): the run is no execution of the
  // program the schedule describes.
  bool infeasible() const { return !pending_forced_.empty() || !unhonoured_.empty(); }
  std::vector<std::string> infeasible_reasons() const;
  // The report's "message_races": decisions in time order, with sites.
  nlohmann::ordered_json to_json(const std::function<std::string(int, std::uintptr_t)>& site_text) const;

private:
  struct Choice {
    bool index = false;  // "#I": a waitany index
    int value = 0;
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

  bool record_;
  std::unordered_map<std::uint64_t, Choice> schedule_;
  std::vector<std::vector<std::uint32_t>> clocks_;  // per rank: its vector clock
  std::vector<int> decisions_made_;                 // per rank: decisions so far
  std::unordered_map<std::uint64_t, Sent> in_flight_;  // by message id, until matched
  std::vector<std::vector<RaceDecision>> decisions_;   // per rank
  std::set<std::uint64_t> pending_forced_;          // scheduled decisions reached, not yet made
  std::vector<std::string> unhonoured_;
};

}  // namespace progsim::mpi
