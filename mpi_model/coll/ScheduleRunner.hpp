// Runs a collective's schedule for its request: an explicit state machine
// (round index, messages in flight). The MPI call that starts the collective
// runs every round it can at once; when a round has to wait for messages,
// the last of them to complete enables the progress chunk
// coll.next_round(...), and the progress policy decides who runs the rest
// (the rank inside a progressing MPI call under weak, the progress thread,
// the NIC, or at once under ideal). Blocking collectives start and wait on
// the same request, so blocking, nonblocking and persistent collectives
// share one implementation.
#pragma once

#include "coll/Schedule.hpp"
#include "core/Request.hpp"

#include <functional>

namespace progsim::sim {
class Rank;
}

namespace progsim::mpi {
class CallContext;
}

namespace progsim::mpi::coll {

// Builds the calling process's schedule; returns an MPI error class.
using Builder = std::function<int(Schedule&)>;

class ScheduleRunner final : public CollectiveOperation {
public:
  ScheduleRunner(Request& request, Builder build) : request_(request), build_(std::move(build)) {}

  int start() override;
  std::string describe() const override;
  std::vector<RequestPtr> in_flight() const override;

private:
  // Runs rounds until one waits for its messages, or the schedule ends.
  void run();
  // The progress policy's host cost of starting the schedule.
  void charge_setup();
  void post(const Round& round);
  void message_done();
  void finish();

  Request& request_;
  Builder build_;
  Schedule schedule_;
  std::size_t round_ = 0;
  bool posted_ = false;   // the current round's messages are started
  bool posting_ = false;  // inside post(): completions are counted, not acted on
  std::size_t outstanding_ = 0;
  std::vector<RequestPtr> messages_;  // of the current round
  int error_ = MPI_SUCCESS;
};

// A collective request of the calling process on `comm` (not in the handle
// table; inactive until started).
RequestPtr make_collective_request(const CallContext& caller, const Communicator& comm, Builder build, bool persistent);
// Blocking collective: starts the schedule and waits for it inside the call
// (CallContext::wait: the rank takes part in deadlock detection meanwhile).
// Returns MPI_SUCCESS or an MPI error class.
int run_blocking(const CallContext& caller, const Communicator& comm, Builder build);

}  // namespace progsim::mpi::coll
