// Internal point-to-point messages of the collectives and communicator
// constructors on the communicator's collective context (context_offset 1).
// The collectives themselves are schedules (Schedule.hpp, Algorithms.hpp)
// run by ScheduleRunner.
//
// Conventions:
//  * A CollCall is one collective call of one process: its caller (the
//    MPI call: for the point-to-point engine, waits and the call's name;
//    core/CallContext.hpp), the communicator and
//    the tag of its internal messages. Collective calls on a communicator
//    happen in the same order at all members and no algorithm receives from
//    MPI_ANY_SOURCE, so per-pair message order (non-overtaking) keeps
//    consecutive collectives apart.
//  * Every wait goes through CallContext::wait (RankProgress::wait_until): a rank
//    blocked in a collective is part of deadlock detection and the report
//    names the collective ("MPI_Bcast(comm=...), waiting for a message from
//    rank 1").
//  * Functions return MPI_SUCCESS or an MPI error class (MPI_ERR_TRUNCATE
//    when a peer sent more than the receive buffer holds); the binding raises
//    it on the communicator. Arguments are checked by the bindings.
//  * Counts and displacements are int64; displacements of the v/w variants
//    are in bytes here (the bindings scale them by the extent).
#pragma once

#include "core/CallContext.hpp"
#include "core/Communicator.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace progsim::mpi::coll {

struct CollCall {
  const CallContext& caller;
  const Communicator& comm;
  int tag;

  int me() const { return comm.my_rank; }
  int size() const { return comm.size(); }
};

// Tags of the collectives' internal messages (on the collective context).
enum Tag : int {
  kBarrierTag = 1,
  kBcastTag,
  kReduceTag,
  kAllreduceTag,
  kGatherTag,
  kScatterTag,
  kAllgatherTag,
  kAlltoallTag,
  kReduceScatterTag,
  kScanTag,
  kExscanTag,
  kCommCreateTag,     // exchanges of MPI_Comm_split & co.
  kContextTag,        // the context id agreement
};
// Nonblocking and persistent collectives: a tag of their own per call (the
// call's position among the communicator's collectives, the same at every
// member), so that several in flight at once never take each other's
// messages. Blocking collectives use their kind's tag, as MPICH does: a
// broadcast's eager message waits at a process that is still in a barrier.
constexpr int kScheduleTagBase = 0x100;
inline int schedule_tag(const Communicator& comm)
{
  return kScheduleTagBase + static_cast<int>(comm.log.calls % (1u << 24));
}
// Tags of the agreement of MPI_Comm_create_group (base + the call's tag,
// tag <= MPI_TAG_UB) and of the from-group constructors (base + a hash of
// the string tag, below 2^27): see agree_context_among.
constexpr int kCreateGroupAgreementTagBase = 0x40000000;
constexpr int kFromGroupAgreementTagBase = 0x38000000;

// --- internal point-to-point (P2P.cpp) ------------------------------------
RequestPtr isend(const CollCall& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type);
RequestPtr irecv(const CollCall& c, int peer, void* buf, std::int64_t count, MPI_Datatype type);
// Waits for the request; returns its error (MPI_ERR_TRUNCATE...) or MPI_SUCCESS.
int wait(const CollCall& c, const RequestPtr& request);
int wait_all(const CollCall& c, const std::vector<RequestPtr>& requests);
int send(const CollCall& c, int peer, const void* buf, std::int64_t count, MPI_Datatype type);
int recv(const CollCall& c, int peer, void* buf, std::int64_t count, MPI_Datatype type);
// Local copy between two typed buffers (a process's own block); truncation
// is an error as for a message.
int local_copy(const CollCall& c, const void* src, std::int64_t scount, MPI_Datatype stype, void* dst,
               std::int64_t rcount, MPI_Datatype rtype);
// --- the order of the collectives (CollectiveOrder.cpp) ---------------------
// Records the call in the communicator's collective log and reports a
// collective mismatch (a StandardError, once per communicator) when a
// neighbour's call at the same position differs.
void note_collective(const CallContext& caller, const Communicator& comm, const char* name);
// The same communicator as `comm` (same context id) of member `peer` of its
// local group, or nullptr when that process freed it.
const Communicator* collective_member(MpiModel& model, const Communicator& comm, int peer);
// Where world rank `world` made its collective call #k on a communicator
// with this log: the source line, or the trace line it replayed.
std::string collective_site(const CollectiveLog& log, std::uint64_t k, int world);
// "MPI_COMM_WORLD", or "a communicator of 4 process(es) (context id 8)".
std::string communicator_text(const Communicator& comm);
// --- argument agreement (CollectiveArguments.cpp) ---------------------------
// Records what the caller passed to its latest collective call on `comm`
// (counted by note_collective) and reports a StandardError (once per
// communicator) when another member's call disagrees: root, operation,
// MPI_IN_PLACE, type signatures of the portions. Intracommunicators only.
void note_arguments(const CallContext& caller, const Communicator& comm, CollectiveArguments args);
// Every rank finished: reports each communicator on which some members
// entered more collectives than others (a collective that others never
// called, e.g. an eager MPI_Reduce whose root never joined).
void check_collectives_complete(MpiModel& model);

// --- blocking collectives for communicator and window constructors, fences -
// (Blocking.cpp: the schedule of the default algorithm, started and waited
// for inside the call.)
int barrier(const CollCall& c);
int bcast(const CollCall& c, void* buf, std::int64_t count, MPI_Datatype type, int root);
int allreduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type,
              MPI_Op op);
int allgather(const CollCall& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype, void* recvbuf,
              std::int64_t rcount, MPI_Datatype rtype);

// --- communicator creation (ContextAgreement.cpp) ---------------------------
// A context id above every id any member holds or held (the MAX of their
// next ids; see core/Communicator.hpp). MPI_ERR_INTERN when the ids are
// exhausted.
// Collective over c.comm, an intracommunicator (an internal allreduce).
int agree_context(const CollCall& c, int& context);
// Collective over both groups of an intercommunicator.
int agree_context_inter(const CallContext& caller, const Communicator& inter, int& context);
// Collective over `members` (world ranks) only: MPI_Comm_create_group,
// MPI_Comm_create_from_group, MPI_Intercomm_create_from_groups. The members
// reduce their next ids with MAX up a binomial tree over the members in
// world rank order and broadcast the result back, addressing each other by
// rank in `address` (a communicator holding all of them: the parent, or
// MPI_COMM_WORLD) on its collective context with `tag`. Addressing by the
// parent's ranks rather than by rank in the group keeps agreements over
// different groups with the same tag apart: a message from world rank w
// only matches a receive from w.
int agree_context_among(const CallContext& caller, const Communicator& address, std::vector<int> members, int tag,
                        int& context);

}  // namespace progsim::mpi::coll
