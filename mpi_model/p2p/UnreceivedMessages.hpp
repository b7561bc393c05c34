// The program's point-to-point messages that were sent and are neither
// matched by a receive (or MPI_Mprobe) nor withdrawn by MPI_Cancel. When
// every rank has finalized, those left were never received: MPI-4.1
// §11.2.2 requires each process to "execute matching calls needed to
// complete MPI communications initiated by other processes" before
// MPI_Finalize (Example 11.4: a send without a matching receive is
// erroneous). Kept from the sender's side because a message that arrives
// after its target ended is never queued there. Collective, partitioned and
// other internal messages are not the program's: not recorded.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

struct Request;

struct SentMessage {
  std::uint64_t id = 0;
  int source = 0;  // world ranks
  int dest = 0;
  int dest_local = 0;  // rank in the communicator
  int tag = 0;
  std::size_t bytes = 0;
  std::string comm_name;
  const char* call = "";   // "MPI_Send", "MPI_Start"
  std::uintptr_t site = 0;  // diagnosis/CallSites.hpp
  double time = 0;          // sent at
};

class UnreceivedMessages {
public:
  // Whether `send` (started) is a message of the program: one with a
  // message id, to a process, on its communicator's own context.
  static bool records(const Request& send);
  // A message of the program (records(send)); `call` and `site`: the
  // program's call that sent it.
  void sent(const Request& send, const char* call, std::uintptr_t site);
  // The target matched the message, or a cancel withdrew it.
  void settled(std::uint64_t message_id) { open_.erase(message_id); }
  // The messages neither matched nor withdrawn, by id (send order).
  std::vector<SentMessage> remaining() const;

private:
  std::unordered_map<std::uint64_t, SentMessage> open_;  // looked up; sorted for output
};

}  // namespace progsim::mpi
