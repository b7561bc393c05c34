// MPI-4.1 §6.14 "Correctness": all members of a communicator call the same
// collectives in the same order, and every member calls each of them. Each
// process logs its collective calls per communicator (CollectiveLog); a
// mismatch is found as soon as the later of two neighbours in the group
// makes its call, a collective that some members never entered when every
// rank has finished. Both are StandardErrors: the run goes on, to show what
// this implementation does with the erroneous program.

#include "coll/Collectives.hpp"

#include "diagnosis/StandardErrors.hpp"
#include "MpiModel.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"
#include "diagnosis/CallSites.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <cstring>
#include <set>

namespace progsim::mpi::coll {

std::string communicator_text(const Communicator& comm)
{
  if (!comm.name.empty())
    return comm.name;
  return "a communicator of " + std::to_string(comm.group->size()) + " process(es) (context id " +
         std::to_string(comm.context_id) + ")";
}

namespace {

// Call #k (0-based) of a log: its name, or "a collective" when it is no
// longer in the log's window.
const char* name_of(const CollectiveLog& log, std::uint64_t k)
{
  const char* name = log.calls > k && log.calls - k <= CollectiveLog::kDepth ? log.names[k % CollectiveLog::kDepth]
                                                                            : nullptr;
  return name ? name : "a collective";
}

std::uintptr_t return_address_of(const CollectiveLog& log, std::uint64_t k)
{
  return log.calls > k && log.calls - k <= CollectiveLog::kDepth ? log.return_addresses[k % CollectiveLog::kDepth] : 0;
}

const char* kSection = "MPI-4.1 §6.14";
const char* kSameOrder = "all members of a communicator call the same collective operations in the same order";

}  // namespace

std::string collective_site(const CollectiveLog& log, std::uint64_t k, int world)
{
  return call_site_text(MpiModel::instance(), world, return_address_of(log, k));
}

const Communicator* collective_member(MpiModel& model, const Communicator& comm, int peer)
{
  const Communicator* other = model.communicators().find_by_context(comm.group->world_rank(peer), comm.context_id);
  return other && other->group->size() == comm.group->size() ? other : nullptr;
}

void note_collective(const CallContext& caller, const Communicator& comm, const char* name)
{
  auto& self = const_cast<Communicator&>(comm);
  std::uint64_t k = self.log.calls++;
  self.log.names[k % CollectiveLog::kDepth] = name;
  self.log.return_addresses[k % CollectiveLog::kDepth] = call_site_mark(caller.rank());
  // Recorded by note_arguments once the call's arguments are checked; until
  // then not those of call #k - kDepth.
  if (self.log.recorded_slot(k))
    self.log.argument_slot(k) = CollectiveArguments{};
  // Among the (local) group; intercommunicators compare within each group.
  int n = comm.group->size();
  if (n < 2 || self.log.mismatch_reported)
    return;
  // Ring neighbours suffice: if the members' calls #k are not all the same,
  // two neighbours differ, and the later of them sees it here.
  int me = comm.my_rank;
  for (int peer : {(me + 1) % n, (me + n - 1) % n}) {
    if (peer == me)
      continue;
    Communicator* other = const_cast<Communicator*>(collective_member(caller.model(), comm, peer));
    if (!other || other->log.calls <= k || other->log.calls - k > CollectiveLog::kDepth)
      continue;
    const char* theirs = other->log.names[k % CollectiveLog::kDepth];
    if (!theirs || std::strcmp(theirs, name) == 0)
      continue;
    self.log.mismatch_reported = other->log.mismatch_reported = true;
    StandardError e;
    e.rule = "collective mismatch";
    e.section = kSection;
    e.requirement = kSameOrder;
    e.what = "collective mismatch on " + communicator_text(comm) + ": its collective call #" + std::to_string(k + 1) + " is " +
             theirs + " at rank " + std::to_string(peer) + " but " + name + " at rank " + std::to_string(me);
    int peer_world = comm.group->world_rank(peer);
    e.sites = {{peer_world, theirs, collective_site(other->log, k, peer_world)},
               {caller.world(), name, collective_site(self.log, k, caller.world())}};
    e.time = caller.rank() ? caller.rank()->clock().now() : simgrid::s4u::Engine::get_clock();
    e.context_id = comm.context_id;
    caller.model().standard_errors().add(std::move(e));
    return;
  }
}

void check_collectives_complete(MpiModel& model)
{
  std::set<int> reported;  // context ids
  int world = static_cast<int>(model.simulation().size());
  for (int r = 0; r < world; ++r) {
    for (const Communicator* comm : model.communicators().live_communicators(r)) {
      int n = comm->group->size();
      if (n < 2 || comm->log.mismatch_reported || reported.count(comm->context_id))
        continue;
      // Ring neighbours suffice again: unequal counts differ somewhere
      // around the ring, where one member made more calls than the next.
      int next = (comm->my_rank + 1) % n;
      const Communicator* other = collective_member(model, *comm, next);
      if (!other || other->log.calls >= comm->log.calls)
        continue;
      reported.insert(comm->context_id);
      std::uint64_t k = other->log.calls;  // the first call `next` did not make
      const char* name = name_of(comm->log, k);
      int next_world = comm->group->world_rank(next);
      StandardError e;
      e.rule = "collective not entered by every member";
      e.section = kSection;
      e.requirement = "every member of a communicator calls each collective operation on it";
      e.what = std::string(name) + " (collective call #" + std::to_string(k + 1) + " on " + communicator_text(*comm) +
               ") was called by rank " + std::to_string(r) + " but never by rank " + std::to_string(next_world) +
               ", which made " + std::to_string(other->log.calls) + " collective call(s) on it before MPI_Finalize";
      e.sites = {{r, name, collective_site(comm->log, k, r)}};
      e.time = simgrid::s4u::Engine::get_clock();
      e.context_id = comm->context_id;
      model.standard_errors().add(std::move(e));
    }
  }
}

}  // namespace progsim::mpi::coll
