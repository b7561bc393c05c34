// A collective operation of one process as a schedule: rounds of internal
// point-to-point messages, each followed by local steps (copy, reduce,
// unpack). An algorithm (coll/*.cpp) builds the schedule of the calling
// process when the collective starts; ScheduleRunner runs it.
//
// Order: steps run in the order the algorithm adds them, except that
// consecutive messages form one round and are in flight together. A local
// step runs once every message added before it completed; a message added
// after a local step starts after that step. next_round() separates two
// groups of messages (e.g. receive from the parent, then send to the
// children).
//
// Messages go over a Channel: a communicator (or an intercommunicator's
// local view) and a tag on its collective context. Collectives on one
// communicator start in the same order at every member and no algorithm
// receives from MPI_ANY_SOURCE, so the non-overtaking rule (MPI-4.1 §3.5)
// keeps the messages of one channel apart; concurrent nonblocking
// collectives get a tag of their own (a per-communicator sequence number).
#pragma once

#include "core/Communicator.hpp"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

namespace progsim::mpi::coll {

struct Channel {
  const Communicator* comm = nullptr;
  int tag = 0;
  // A collective the library runs for itself (communicator constructors,
  // windows, fences): a forced algorithm that does not apply gives way to
  // auto's choice instead of ending the run (Selector.hpp).
  bool for_library = false;

  int me() const { return comm->my_rank; }
  int size() const { return comm->size(); }
};

// A local step returns MPI_SUCCESS or an MPI error class.
using LocalStep = std::function<int()>;

struct MessageStep {
  bool send = false;
  Channel channel;
  int peer = 0;  // rank in channel.comm (the remote group for intercommunicators)
  void* buf = nullptr;
  std::int64_t count = 0;
  MPI_Datatype type = MPI_DATATYPE_NULL;
  // The message is the program's portion as it passed it, received into
  // the partner's portion (neighborhood collectives): its type signature is
  // checked at the match as a point-to-point message's (p2p/TypeMatching).
  bool check_types = false;
};

struct Round {
  std::vector<MessageStep> messages;
  std::vector<LocalStep> after;  // run in order once the messages completed
};

class Schedule {
public:
  explicit Schedule(int owner = -1) : owner_(owner) {}
  int owner() const { return owner_; }  // world rank of the process that runs it

  void send(const Channel& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type);
  void recv(const Channel& c, int peer, void* buf, std::int64_t count, MPI_Datatype type);
  void local(LocalStep step);
  // The next messages wait for those added so far.
  void next_round();

  // Memory and objects that live as long as the schedule.
  std::byte* scratch(std::size_t bytes);
  template <class T>
  T& keep(T value)
  {
    auto holder = std::make_shared<T>(std::move(value));
    T& ref = *holder;
    kept_.push_back(std::move(holder));
    return ref;
  }

  const std::vector<Round>& rounds() const { return rounds_; }
  std::vector<Round>& rounds() { return rounds_; }

private:
  Round& message_round();
  int owner_;
  std::vector<Round> rounds_;
  bool closed_ = true;  // the last round takes no more messages
  std::vector<std::shared_ptr<void>> kept_;
};

}  // namespace progsim::mpi::coll
