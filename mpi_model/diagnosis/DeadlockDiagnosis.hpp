// Why a deadlock happened, in the vocabulary of the MPI standard.
//
// At the moment nothing can happen any more, each blocked rank's waits give
// wait-for edges ("rank 0's MPI_Send waits for a matching receive on rank
// 1"). Every part of the model a rank can block in (point-to-point requests,
// RMA epochs, collective schedules) describes its waits through a
// WaitForSource. Following the edges yields a cycle, a chain that ends at a
// rank that finished, or a progress chunk whose owner never enters MPI again.
// The deadlock is then classified:
//   needs buffering            every edge of the cycle is a standard-mode send
//                              waiting in the rendezvous for a receive that is
//                              posted only after a send of the other rank: an
//                              unsafe program (MPI-4.1 §3.5); it completes when
//                              the library buffers the largest of them eagerly;
//   depends on an implementation freedom
//                              the cycle goes through a wait the standard lets
//                              an implementation make or not (a collective that
//                              may synchronize, a blocking MPI_Win_start);
//   needs strong progress      a blocked call waits for a progress chunk
//                              (decoupled activity) of a rank that stays in
//                              user code (polling memory): only weak progress
//                              deadlocks (MPI-4.1 §2.9, Example 12.x);
//   incorrect under every MPI  a cycle of blocked non-local calls, a wait
//                              for a rank that has ended, or a wait that an
//                              error of the program causes (a collective
//                              mismatch, StandardErrors): no implementation
//                              can or has to complete it;
//   memory synchronization     a rank busy-waits on watched memory (outside MPI)
//                              that no other rank can write any more.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace progsim::mpi {

class ProgressEngine;

// What one blocked call waits for. Filled in by the WaitForSource of the
// model part the call blocks in.
enum class WaitKind {
  MatchingCall,       // a matching call on rank `to` (a receive, a send, a post...)
  ProgressChunk,      // a decoupled activity that only rank `to`'s MPI library runs
  CollectivePartner,  // rank `to` to take part in a collective
  Memory,             // a write to memory, by anyone
  Own,                // something only the blocked rank itself can do
};
const char* to_string(WaitKind kind);

struct WaitEdge {
  int from = 0;
  int to = -1;            // world rank waited for; -1: any rank (MPI_ANY_SOURCE)
  WaitKind kind = WaitKind::MatchingCall;
  std::string waits_for;  // "a matching receive on rank 1 (its RTS of 4194304 B is unmatched there)"
  std::string chunk;      // ProgressChunk: the queued chunk, ProgressChunk::describe()
  // Non-empty when the standard lets an implementation complete this wait
  // without the partner or not (e.g. "a collective may synchronize, MPI-4.1 §6.14").
  std::string freedom;
  // Non-empty when the wait comes from a rule of the standard the program
  // broke (StandardErrors: e.g. a collective mismatch on its communicator):
  // "collective mismatch (MPI-4.1 §6.14): ...". No MPI has to complete it.
  std::string error;
  bool bufferable_send = false;  // a standard send that eager buffering would complete
  std::size_t bytes = 0;
};

// One part of the model that ranks can block in.
class WaitForSource {
public:
  virtual ~WaitForSource() = default;
  // Appends the edges of the calls rank `rank` is blocked in.
  virtual void wait_edges(int rank, std::vector<WaitEdge>& edges) const = 0;
  // What the rank has pending when no edge explains its wait ("" if nothing).
  virtual std::string pending(int rank) const = 0;
};

struct DeadlockDiagnosis {
  std::string classification;  // "needs buffering", "incorrect under every MPI"
  std::string text;            // multi-line explanation for the terminal
  nlohmann::ordered_json json;
};

// `program` is the executable's path, for source locations of the calls.
DeadlockDiagnosis diagnose_deadlock(const ProgressEngine& progress, const std::vector<const WaitForSource*>& sources,
                                    const std::string& program);

}  // namespace progsim::mpi
