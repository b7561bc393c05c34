// MPI requests (MPI-4.1 §3.7) as explicit state machines. A request is owned
// by the rank that created it; protocol packets refer to the peer's request
// directly (everything lives in one address space), as RTS/CTS headers of a
// real MPI carry request ids.
#pragma once

#include "core/Communicator.hpp"
#include "core/HandleTable.hpp"

#include "datatype/Datatype.hpp"

#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace progsim::mpi {

// Generalized: MPI_Grequest_start (MPI-4.1 §13.2), completed by the program.
// Collective: a blocking, nonblocking or persistent collective (chapter 6),
// run as a schedule of internal messages (coll/ScheduleRunner.hpp).
// Rma: MPI_Rput & co. (MPI-4.1 §12.3.5), completed by the RMA engine.
// Partitioned: MPI_Psend_init / MPI_Precv_init (chapter 4), its partitions
// moved as internal messages (p2p/partitioned/).
enum class RequestKind : std::uint8_t { Send, Recv, Generalized, Collective, Rma, Partitioned };

// The program's callbacks of a generalized request.
struct GeneralizedCallbacks {
  MPI_Grequest_query_function* query = nullptr;
  MPI_Grequest_free_function* free = nullptr;
  MPI_Grequest_cancel_function* cancel = nullptr;
  void* extra_state = nullptr;
};
enum class SendMode : std::uint8_t { Standard, Buffered, Synchronous, Ready };

// A buffer of the program that an operation reads (`send`: the program may
// read it meanwhile) or writes, as blocks of typed items at byte offsets
// from `base` (the v and w forms of collectives have one block per peer).
struct ProgramBuffer {
  struct Block {
    std::int64_t offset = 0;  // bytes from base
    std::int64_t count = 0;
    dt::DatatypePtr type;
  };
  const void* base = nullptr;
  bool send = false;
  const char* role = "";  // "send", "receive", "origin", "result": for the report
  std::vector<Block> blocks;
};

struct Request;
using RequestPtr = std::shared_ptr<Request>;

// The operation behind a collective request (implemented in coll/): core
// only starts it and asks what it waits for.
class CollectiveOperation {
public:
  virtual ~CollectiveOperation() = default;
  // Starts the collective (again, for MPI_Start of a persistent one: a new
  // schedule is built, MPI-4.1 §6.13). Returns an MPI error class.
  virtual int start() = 0;
  // "MPI_Iallreduce(comm=MPI_COMM_WORLD), waiting for a message from rank 3"
  virtual std::string describe() const = 0;
  // Its internal messages not complete yet (deadlock explanation).
  virtual std::vector<RequestPtr> in_flight() const = 0;
};

// The operation behind a partitioned request (p2p/partitioned/): core only
// starts an epoch and asks what it waits for.
class PartitionedOperation {
public:
  virtual ~PartitionedOperation() = default;
  // Starts an epoch (MPI_Start). Returns an MPI error class.
  virtual int start() = 0;
  // "MPI_Precv_init(source=0, tag=5, comm=MPI_COMM_WORLD, 8 partitions), 3 of 8 partitions arrived"
  virtual std::string describe() const = 0;
  // Its internal messages not complete yet (deadlock explanation).
  virtual std::vector<RequestPtr> in_flight() const = 0;
  // What the peer must do for an internal message waiting for a matching
  // call ("rank 0 to start its matching MPI_Psend_init and mark ...").
  virtual std::string waits_for_peer() const = 0;
  // What only the owner can do ("" if nothing): partitions it never readied.
  virtual std::string waits_for_owner() const = 0;
  virtual int partitions() const = 0;
  // Its buffer is sent (MPI_Psend_init), not received (MPI_Precv_init).
  virtual bool sends() const = 0;
};

// How a message travels; chosen by ProtocolSelector from mode and size.
enum class Protocol : std::uint8_t {
  None,            // nothing to move (MPI_PROC_NULL)
  Eager,           // data sent with the envelope, buffered at the target if unexpected
  EagerSync,       // eager, and the target acknowledges the match (MPI_Ssend of a small message)
  RendezvousPush,  // RTS; the target answers CTS when matched; the origin then sends the data
  RendezvousPull,  // RTS; the target reads the data from the origin (RDMA get), then sends FIN
};

enum class RequestState : std::uint8_t {
  Inactive,        // persistent request, not started
  Posted,          // receive waiting for a match / send started, nothing answered yet
  WaitingForCts,   // rendezvous push origin: RTS sent
  SendingData,     // rendezvous push origin: data on the wire
  WaitingForAck,   // eager-sync origin: message sent, match not yet acknowledged
  WaitingForFin,   // rendezvous pull origin: RTS sent, target not done reading
  WaitingForData,  // receive matched a rendezvous message; data not arrived yet
  Complete,
};

const char* to_string(Protocol protocol);
const char* to_string(RequestState state);
const char* to_string(SendMode mode);

// The fields of the requests few operations make (buffers guarded by
// --check buffers, buffered and cancelled sends, MPI_Isendrecv, generalized
// and partitioned requests), apart from Request: inline, they took ~190 of
// its 504 bytes in every request, and a replayed rank holds ~7 requests
// (issue 19: a million ranks on 24 GiB). Made on the first write
// (Request::writable_rare), copied with the request.
struct RequestRare {
  // --check buffers (diagnosis/PendingBuffers): the memory watches guarding
  // the operation's buffers while it is pending (none when unguarded).
  std::vector<int> buffer_guards;
  // The program's buffers of a nonblocking or persistent collective or of a
  // request-based RMA operation, described by its binding when --check
  // buffers is on (a point-to-point request's is buf, count, type).
  std::vector<ProgramBuffer> program_buffers;
  std::size_t bsend_reservation = 0;
  // A buffered send: the library's request that carries the data (the
  // program's request completed at once, MPI-4.1 §3.6).
  std::shared_ptr<Request> buffered_message;
  // MPI_Isendrecv(_replace): the request completes when all parts have; its
  // status is the receive part's.
  std::vector<std::shared_ptr<Request>> parts;
  GeneralizedCallbacks generalized;  // kind Generalized only
  std::shared_ptr<PartitionedOperation> partitioned;  // kind Partitioned only
};

// Owns a request's RequestRare (or none); a copy of the request gets a copy of it.
class RequestRarePtr {
public:
  RequestRarePtr() = default;
  RequestRarePtr(const RequestRarePtr& other) : p_(other.p_ ? std::make_unique<RequestRare>(*other.p_) : nullptr) {}
  RequestRarePtr& operator=(const RequestRarePtr& other)
  {
    p_ = other.p_ ? std::make_unique<RequestRare>(*other.p_) : nullptr;
    return *this;
  }
  RequestRarePtr(RequestRarePtr&&) = default;
  RequestRarePtr& operator=(RequestRarePtr&&) = default;
  const RequestRare* get() const { return p_.get(); }
  RequestRare& make()
  {
    if (!p_)
      p_ = std::make_unique<RequestRare>();
    return *p_;
  }

private:
  std::unique_ptr<RequestRare> p_;
};

// Its enumerations are one byte each (std::uint8_t): with the handle they
// fill the first 8 bytes.
struct Request {
  MPI_Request handle = MPI_REQUEST_NULL;
  RequestKind kind = RequestKind::Send;
  SendMode mode = SendMode::Standard;
  Protocol protocol = Protocol::None;
  RequestState state = RequestState::Posted;
  int owner = 0;                 // world rank that created the request
  // The communicator, copied: a request may outlive MPI_Comm_free.
  MPI_Comm comm_handle = MPI_COMM_NULL;
  std::string comm_name;
  int comm_context = 0;          // the communicator's (point-to-point) context id
  int self_local = 0;            // the owner's rank in the communicator
  int context_id = 0;            // context the messages match on (collectives: comm_context + 1)
  int peer = 0;                  // local rank in comm: destination, or source / MPI_ANY_SOURCE
  int peer_world = -1;           // world rank of peer; -1 for MPI_ANY_SOURCE / MPI_PROC_NULL
  int tag = 0;
  void* buf = nullptr;
  std::int64_t count = 0;
  MPI_Datatype datatype = MPI_DATATYPE_NULL;  // the handle, for explanations
  // The type itself, held so that MPI_Type_free during the operation cannot
  // take it away (MPI-4.1 §5.1.9: pending communication completes normally).
  dt::DatatypePtr type;
  std::size_t bytes = 0;         // packed size of the send data / of the receive buffer
  const char* call = "";         // the MPI procedure that started it, for explanations
  // Where the program made the call that started it or gave it its handle
  // (diagnosis/CallSites.hpp): for the errors found when its message matches
  // and for the checks at MPI_Finalize.
  std::uintptr_t call_site = 0;

  // An internal message carrying a program's portion whose type signature
  // is checked at the match (neighborhood collectives, coll/Schedule.hpp).
  bool check_types = false;
  bool persistent = false;
  bool freed_by_user = false;    // MPI_Request_free on an active request
  bool cancelled = false;
  bool from_bsend_buffer = false;

  // Result (valid when Complete).
  int status_source = MPI_ANY_SOURCE;
  int status_tag = MPI_ANY_TAG;
  int status_error = MPI_SUCCESS;
  std::size_t status_bytes = 0;

  // Protocol state.
  std::shared_ptr<std::vector<std::byte>> staged;  // packed data of an eager or buffered send
  std::uint64_t message_id = 0;  // the message this request sends or received (report, trace)

  // MPI_Cancel of a send (p2p/SendCancel.cpp). The target NIC's match word
  // of the message this request sent: the id of the message once the target
  // matched it, or once a cancel withdrew it (whichever came first wins).
  std::uint64_t matched_message = 0;
  std::uint64_t withdrawn_message = 0;
  bool cancel_pending = false;  // the withdrawal's answer has not been handled yet: not done

  // Internal messages of a collective schedule: told when the message
  // completes (the schedule then enables its next round). Runs once.
  std::function<void()> completion_listener;
  // Nobody waits for this request itself, only its completion listener
  // reacts (a collective's internal message): its completion wakes its rank
  // only if the rank waits on anything (RankProgress::wake_unless_selective).
  bool listener_only = false;
  // coll-sync=never: the library buffers this internal message (eager
  // whatever its size), so the collective never waits for its partner.
  bool library_buffered = false;
  std::shared_ptr<CollectiveOperation> collective;  // kind Collective only

  // Message races (p2p/MessageRaces.hpp), only when recorded or scheduled:
  // this receive's decision number on its rank (0: none, or made), and
  // whether match-schedule narrowed it to one source (its own source kept).
  int decision = 0;
  bool forced_match = false;
  int wildcard_source = MPI_ANY_SOURCE;
  // MPI_Request_get_status told the program it completed: a test procedure
  // over it must return something (MessageRaces::forced_requests).
  bool completion_seen = false;

  // Simulated times for the report: started, matched, completed.
  double post_time = 0, match_time = -1, complete_time = -1;
  // While the program holds it active: its key among its owner's pending
  // operations in the overlap meter (PointToPoint::held_by_user); -1 otherwise.
  double overlap_hold = -1;

  // The rare fields (RequestRare): read without making them (an empty
  // record when never written), or made to be written.
  const RequestRare& rare() const;
  RequestRare& writable_rare() { return rare_.make(); }
  RequestRarePtr rare_;

  bool complete() const { return state == RequestState::Complete; }
  bool active() const { return state != RequestState::Inactive; }
  std::string describe() const;  // "MPI_Send(dest=1, tag=0, comm=MPI_COMM_WORLD, 4194304 bytes)"
};

// Handle <-> request table. One table for the run (handles are unique across
// ranks, which is allowed: a handle only has meaning in its owner).
// A new request of `kind` made by `owner`'s call `call` on `comm`: the
// communicator it names (handle, name, context), the owner's rank there, and
// the context its messages use (the communicator's, plus `context_offset`:
// 1 for collectives' internal traffic). No peer yet (MPI_PROC_NULL).
RequestPtr new_request(RequestKind kind, int owner, const Communicator& comm, int context_offset, const char* call);

class RequestTable {
public:
  MPI_Request insert(const RequestPtr& request);
  RequestPtr find(MPI_Request handle) const;
  void erase(MPI_Request handle);
  std::size_t live() const { return table_.live(); }
  // The requests the program holds, by handle (the checks at MPI_Finalize).
  std::vector<RequestPtr> live_requests() const;

private:
  // index = handle & 0xffffff (0: MPI_REQUEST_NULL); the last freed index
  // first, as MPICH.
  HandleTable<RequestPtr, HandleReuse::LastFreedFirst> table_{1};
};

}  // namespace progsim::mpi
