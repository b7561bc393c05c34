// Communicators (MPI-4.1 §7): a group of world ranks and a context id that
// separates matching between communicators. Context ids are even; id + 1 is
// the communicator's collective context, used by the collectives' internal
// messages so that they never match user point-to-point traffic.
//
// Every process has its own object for each communicator it belongs to
// (MPI_COMM_WORLD and MPI_COMM_SELF included): the error handler, name,
// attributes and info hints are process-local state. The members' objects of
// one communicator share the context id and (by value) the group.
//
// Handles are per process: 0x44000000 | index, with WORLD = 1, SELF = 2 and
// created communicators at the lowest free index from 3.
//
// Context ids are chosen so that no process ever holds two communicators
// with the same id, and ids are never reused by a process:
//  * Blocking constructors agree collectively: every process keeps the
//    next id it may use (above every id it ever held); the members reduce
//    these with MPI_MAX over the parent (an internal allreduce, see
//    coll/ContextAgreement.cpp) and all take the result. These ids are
//    multiples of 4 (0 is MPI_COMM_WORLD).
//  * MPI_Comm_idup needs no communication (it completes at once but must
//    not synchronize: another member may still be blocked elsewhere): its
//    id comes from a job-wide counter of ids = 2 mod 4 (2 is MPI_COMM_SELF),
//    looked up by a key all members compute alike (the parent's id, the
//    parent's lowest world rank, and how many idups the process made on
//    that parent); the first member to arrive draws the id.
// Both are deterministic. Disjoint communicators made by one MPI_Comm_split
// share one id, which is safe because no process belongs to two of them.
#pragma once

#include "core/Attributes.hpp"
#include "core/Group.hpp"
#include "core/HandleTable.hpp"
#include "core/Info.hpp"
#include "datatype/Datatype.hpp"

#include <mpi.h>

#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <tuple>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

namespace progsim::mpi {

namespace topology {
class Topology;
}

// What a member passed to a collective call, as far as the other members'
// calls must agree with it (MPI-4.1 chapter 6; coll/CollectiveArguments.cpp).
struct CollectiveArguments {
  // How the members' portions pair up: Bcast (every member's buffer against
  // the root's), Gather (each member's send against the root's receive from
  // it), Scatter (the root's send to a member against its receive),
  // AllToAll (each pair's send against receive), Reduction (the buffers'
  // signatures equal everywhere). Unknown: nothing recorded, nothing checked.
  enum class Shape : std::uint8_t { Unknown, Bcast, Gather, Scatter, AllToAll, Reduction };
  // What a member sends to or receives from each peer: `count` items of
  // `type`, or counts[peer] items (v forms) of types[peer] (w form).
  struct PerPeer {
    std::vector<std::int64_t> counts;
    std::vector<dt::DatatypePtr> types;
  };
  struct Side {
    bool present = false;
    dt::DatatypePtr type;
    std::int64_t count = 0;
    // v and w forms only: each process keeps kDepth of these records per
    // communicator, so the rare per-peer arrays live apart (a replay of a
    // million ranks holds 16 per rank).
    std::shared_ptr<const PerPeer> per_peer;  // shared by copies, never changed once made
  };
  Shape shape = Shape::Unknown;
  const char* section = "";  // "MPI-4.1 §6.4"
  bool rooted = false;       // a rooted collective: root is significant
  int root = -1;             // rooted collectives (intercommunicators: also MPI_ROOT, MPI_PROC_NULL)
  MPI_Op op = MPI_OP_NULL;   // reductions
  bool predefined_op = false;
  bool in_place = false;
  bool in_place_everywhere = false;  // MPI_IN_PLACE must be passed by all members or none
  Side send, recv;
};

// The collective calls a process made on a communicator, to detect
// mismatched collectives (MPI-4.1 §6.14: all members must call the same
// collectives in the same order).
struct CollectiveLog {
  static constexpr std::uint64_t kDepth = 16;
  std::uint64_t calls = 0;                // collectives started so far
  std::array<const char*, kDepth> names{};  // name of call #i at [i % kDepth]
  // Where the program made call #i (diagnosis/CallSites.hpp), for
  // the source lines of an error.
  std::array<std::uintptr_t, kDepth> return_addresses{};
  bool mismatch_reported = false;
  // The arguments of call #i at [i % kDepth], and whether a disagreement
  // was reported. Grown on demand up to kDepth entries: most communicators
  // see a few collectives, and a million replayed ranks held 16 each
  // (1.8 KB per rank for MPI_COMM_WORLD).
  std::vector<CollectiveArguments> arguments;
  bool arguments_mismatch_reported = false;

  // Call #k's argument slot (made if needed), or nullptr / unknown arguments
  // when none was recorded there.
  CollectiveArguments& argument_slot(std::uint64_t k)
  {
    std::size_t i = k % kDepth;
    if (arguments.size() <= i)
      arguments.resize(i + 1);
    return arguments[i];
  }
  const CollectiveArguments* recorded_slot(std::uint64_t k) const
  {
    std::size_t i = k % kDepth;
    return i < arguments.size() ? &arguments[i] : nullptr;
  }
};

struct Communicator {
  MPI_Comm handle = MPI_COMM_NULL;
  int context_id = 0;
  GroupPtr group;         // the local group
  GroupPtr remote_group;  // intercommunicators only (MPI-4.1 §7.6)
  int owner = -1;    // world rank of the process this object belongs to
  int my_rank = -1;  // the owner's rank in the (local) group
  std::string name;  // MPI_Comm_set_name; "" when never named

  // Process-local state.
  MPI_Errhandler errhandler = MPI_ERRORS_ARE_FATAL;
  AttributeSet attributes;
  Info hints;
  CollectiveLog log;
  int idups = 0;  // MPI_Comm_idup calls on this communicator (their key)
  bool freed = false;
  // The session it was created from (MPI_Comm_create_from_group on a group
  // of MPI_Group_from_session_pset, MPI-4.1 §11.3); MPI_SESSION_NULL: the
  // World Model. Set while its owner is in MPI_Session_finalize of that
  // session (sessions/FinalizeSynchronization.hpp).
  MPI_Session session = MPI_SESSION_NULL;
  bool session_finalizing = false;
  // Intercommunicators: the local group as an intracommunicator for the
  // internal messages among it (same context ids, tags of their own; see
  // coll/Intercomm.cpp). Made on first use.
  std::shared_ptr<Communicator> local_view;
  // The virtual topology (MPI-4.1 chapter 8; topology/), nullptr when none.
  // Immutable: MPI_Comm_dup shares it.
  std::shared_ptr<const topology::Topology> topology;

  bool is_inter() const { return remote_group != nullptr; }
  // The processes point-to-point calls address: the remote group of an
  // intercommunicator, else the group. (MPI_Comm_size is group->size().)
  int size() const { return (remote_group ? *remote_group : *group).size(); }
  int world_rank(int peer) const { return (remote_group ? *remote_group : *group).world_rank(peer); }
  // Local rank (in the local group) of a world rank, or -1 when it is not a member.
  int local_rank(int world) const { return world == owner ? my_rank : group->local_rank(world); }
};

// The communicators of the run, per process.
class CommunicatorTable {
public:
  // Freed communicator objects kept alive for a while (internal messages of
  // an operation may still name them).
  static constexpr std::size_t kQuarantine = 1024;

  void reset(int world_size);
  // The communicator `handle` as seen by `world_rank`, or nullptr.
  const Communicator* find(MPI_Comm handle, int world_rank) const;
  Communicator* get(MPI_Comm handle, int world_rank);
  // The live communicator of `world_rank` with that context id, or nullptr.
  Communicator* find_by_context(int world_rank, int context_id);
  const Communicator& world() const { return **ranks_.front().slots.slot(1); }

  // Registers a new communicator of `world_rank` (context id, group, owner
  // and my_rank set) and gives it a handle.
  Communicator& add(int world_rank, std::unique_ptr<Communicator> comm);
  // MPI_Comm_free: the handle becomes invalid; the object stays alive for a
  // while (kQuarantine).
  void remove(int world_rank, MPI_Comm handle);

  // The lowest id `world_rank` may take in an agreement (a multiple of 4
  // above every id it holds or held).
  int next_context(int world_rank) const { return ranks_[static_cast<size_t>(world_rank)].next_context; }
  // The id of an MPI_Comm_idup (see above): `members` processes will ask
  // with the same key; the first draws a fresh id.
  int idup_context(int parent_context, int parent_lowest_rank, int sequence, int members);
  std::size_t live(int world_rank) const;
  // The live communicators of `world_rank`, in handle order.
  std::vector<const Communicator*> live_communicators(int world_rank) const;

private:
  struct PerRank {
    // By handle index: 0 MPI_COMM_NULL, 1 MPI_COMM_WORLD, 2 MPI_COMM_SELF.
    HandleTable<std::unique_ptr<Communicator>> slots{3};
    int next_context = 4;
    std::unordered_map<int, Communicator*> by_context;
  };
  struct IdupEntry {
    int context;
    int waiting;  // members that have not asked yet
  };
  void retire(std::unique_ptr<Communicator> comm);

  std::vector<PerRank> ranks_;
  std::deque<std::unique_ptr<Communicator>> quarantine_;
  std::map<std::tuple<int, int, int>, IdupEntry> idups_;
  int next_idup_context_ = 6;
};

// Largest valid tag (the MPI_TAG_UB attribute; MPI-4.1 requires >= 32767).
constexpr int kTagUpperBound = 0x3fffffff;

// Context ids of the predefined communicators.
constexpr int kWorldContext = 0;
constexpr int kSelfContext = 2;

}  // namespace progsim::mpi
