// Tunables of the MPI library model. Each is registered in the --cfg table
// (MpiModel::register_parameters) with its unit, meaning and the real
// implementation its default comes from. A progress policy's own parameters
// are its own (in its file, PolicyDescription::parameters).
#pragma once

#include "coll/Selector.hpp"

#include <string>

namespace progsim::mpi {

struct ModelParameters {
  // Protocols
  long long eager_threshold = 65536;  // largest eagerly sent message (bytes)
  std::string rendezvous = "push";    // rendezvous variant for larger messages: push | pull
  // Per transport: shared memory between ranks of one host, the network
  // between hosts (real MPIs switch protocols at different sizes on each).
  // -1 and "same" follow the two values above.
  long long eager_threshold_shm = -1;
  long long eager_threshold_network = -1;
  std::string rendezvous_shm = "same";
  std::string rendezvous_network = "same";
  // Buffered sends (MPI_Bsend) may use another variant: Open MPI's ob1 pushes
  // a buffered message from the attached buffer, and pulls (RDMA get) others.
  std::string rendezvous_buffered = "same";
  long long header_bytes = 64;        // envelope / control packet on the wire
  long long nic_transfers = 32;       // transfers on the network from one host at once
  double chunk_cost = 200e-9;         // host CPU seconds to run one progress chunk
  double poll_cost = 100e-9;          // host CPU of a progress poll (test procedures, blocked waits)
  bool call_sites = true;             // record the program's source line of each blocking call (deadlock explanations)
  bool progress_every_call = false;   // weak: every MPI call progresses, not only blocked/test calls
  long long livelock_tests = 100000;  // test calls in a row that find nothing before a quiet rank is held (0: never)

  // Collectives: implementation freedoms and algorithm overrides
  coll::CollectiveParameters coll;
  // One-sided communication: the implementation freedoms of MPI-4.1 §12.5
  bool win_start_blocks = false;      // MPI_Win_start waits for the matching posts (else ops wait)
  bool win_complete_remote = false;   // MPI_Win_complete waits until the targets applied the operations
  std::string rma_issue = "call";     // RMA operations go out at the call, or at the closing synchronization
  std::string window_watch = "auto";  // which window memory is watched for busy-waiting: auto | all | none
  // Sessions: whether MPI_Session_finalize synchronizes (MPI-4.1 §11.3.1): local | collective
  std::string session_finalize_sync = "local";

  // Partitioned communication: how partitions travel (p2p/partitioned/PartitionLayout.hpp)
  std::string part_aggregation = "per-partition";  // per-partition | whole-message

  // Checks: leaks (objects never freed before MPI_Finalize) and undefined
  // outcomes (diagnosis/StandardErrors.hpp) are errors, not warnings
  bool strict = false;
  // Checks: the buffers of pending nonblocking and persistent point-to-point
  // operations are guarded by the memory watch (diagnosis/PendingBuffers)
  bool check_buffers = false;

  // Message races (p2p/MessageRaces.hpp): record the wildcard decisions and
  // their alternatives; force some of them ("R:K=S,...", "R:K=#I", "R:K=#I+J")
  bool match_record = false;
  std::string match_schedule;

  // Report
  long long report_messages = 1000;   // per-message records in the report (the rest is summarized)

  // The eager threshold and rendezvous variant of a message between ranks of
  // one host (`same_host`) or between hosts; `buffered`: of MPI_Bsend.
  long long eager_threshold_between(bool same_host) const
  {
    long long specific = same_host ? eager_threshold_shm : eager_threshold_network;
    return specific >= 0 ? specific : eager_threshold;
  }
  const std::string& rendezvous_between(bool same_host, bool buffered) const
  {
    if (buffered && rendezvous_buffered != "same")
      return rendezvous_buffered;
    const std::string& specific = same_host ? rendezvous_shm : rendezvous_network;
    return specific != "same" ? specific : rendezvous;
  }
};

}  // namespace progsim::mpi
