// Why a deadlock happened, in the vocabulary of the MPI standard.
//
// At the moment nothing can happen any more, each blocked rank's incomplete
// requests give wait-for edges ("rank 0's MPI_Send waits for a matching
// receive on rank 1"). Following them yields a cycle, or a chain that ends
// at a rank that has finished. The deadlock is then classified:
//   needs buffering            every edge of the cycle is a standard-mode send
//                              waiting in the rendezvous for a receive that is
//                              posted only after a send of the other rank: an
//                              unsafe program (MPI-4.1 §3.5); it completes when
//                              the library buffers the largest of them eagerly;
//   incorrect under every MPI  a cycle of blocked non-local calls, or a wait
//                              for a rank that has ended: no implementation can
//                              complete it;
//   memory synchronization     a rank busy-waits on watched memory (outside MPI)
//                              that no other rank can write any more.
#pragma once

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace progsim::mpi {

class PointToPoint;
class ProgressEngine;

struct WaitEdge {
  int from = 0;
  int to = -1;           // world rank waited for; -1: any rank (MPI_ANY_SOURCE)
  std::string waits_for; // "a matching receive on rank 1 (its RTS of 4194304 B is unmatched there)"
  bool bufferable_send = false;  // a standard send that eager buffering would complete
  std::size_t bytes = 0;
};

struct DeadlockDiagnosis {
  std::string classification;  // "needs buffering", "incorrect under every MPI"
  std::string text;            // multi-line explanation for the terminal
  nlohmann::ordered_json json;
};

DeadlockDiagnosis diagnose_deadlock(const ProgressEngine& progress, const PointToPoint& p2p);

}  // namespace progsim::mpi
