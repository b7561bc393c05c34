// --check buffers: the program must leave the buffers of a pending
// nonblocking or persistent operation alone until the operation completes:
// point-to-point (MPI-4.1 §3.7.2: "the sender should not modify any part of
// the send buffer after a nonblocking send operation is called, until the
// send completes"; "the receiver should not access any part of the receive
// buffer after a nonblocking receive operation is called, until the receive
// completes"; §3.9 for persistent requests), collectives (§6.12: "all
// associated send buffers ... should not be modified, and all associated
// receive buffers should not be accessed, until the collective operation
// completes"; §6.13) and request-based RMA operations (§12.3: the origin
// buffer is not updated, the buffer of a get not accessed, until the
// operation completes at the origin; §12.3.5: the request's completion).
// Since MPI-3 reading a send buffer is allowed.
//
// The buffers' byte spans are guarded by the memory watch (sim/memory/,
// MemoryWatch::guard) from the call that starts the operation until the
// program learns that it completed (MPI_Wait/MPI_Test and their multiple
// forms, MPI_Request_get_status with flag true, MPI_Request_free): writes
// to a send buffer, any access to a receive buffer, trap. An access by the
// program's code to a byte of a buffer's type map is a StandardError,
// once per buffer of a started operation, naming the call that started it
// and the accessing instruction's line. Accesses outside the type map
// (other data on the same pages, the holes of a vector type, the gaps
// between the blocks of a v collective) and the simulator's own (the model
// packs, unpacks, copies and reduces when data moves) are let through.
//
// Off by default; when off nothing is guarded and nothing costs.
#pragma once

#include "core/Request.hpp"

#include "sim/memory/MemoryWatch.hpp"

#include <functional>
#include <vector>
#include <unordered_map>

namespace progsim::mpi {

class MpiModel;

class PendingBuffers {
public:
  // Run start: `on` is ModelParameters::check_buffers.
  void start(MpiModel& model, bool on);
  bool on() const { return on_; }
  // Whether any buffer is guarded now (the model's accesses then open pages).
  bool guarding() const { return !guards_.empty(); }
  // The program started `request` (a nonblocking call returned its handle,
  // or MPI_Start): guards its buffers (a send-receive's two parts; a
  // collective's or RMA operation's program_buffers).
  void arm(Request& request);
  // The program knows it completed, or gave it up: the guards go.
  void disarm(Request& request);
  // Partitioned requests (MPI-4.1 §4.2.2): a send partition is guarded
  // from its MPI_Pready (`call`), a receive partition from MPI_Start until
  // MPI_Parrived tells the program it arrived; both until completion.
  void partitions_ready(Request& request, const std::vector<int>& partitions, const char* call);
  void partition_arrived(Request& request, int partition);
  // Runs `access`, the model reading (`write` false) or writing `request`'s
  // buffer, with its guarded pages opened (else each instruction traps).
  void model_access(const Request& request, bool write, const std::function<void()>& access) const;
  // The same for items [first, first + count) of `type` at `buf` only (a
  // partitioned receive's message: the rest of a large buffer stays shut).
  void model_access(const void* buf, const dt::Datatype& type, std::int64_t first, std::int64_t count, bool write,
                    const std::function<void()>& access) const;
  // Runs `access`, the model working on the buffers of `request` (a
  // collective's local steps: copies and reductions), with their pages open.
  void model_access_all(const Request& request, const std::function<void()>& access) const;

private:
  struct Guard {
    int owner = 0;
    const char* call = "";       // the call that started it (MPI_Isend, MPI_Start)
    const char* operation = "";  // the request's (MPI_Isend, MPI_Send_init)
    std::uintptr_t call_site = 0;
    RequestKind kind = RequestKind::Send;
    ProgramBuffer buffer;
    bool reported = false;
    const Request* partitioned = nullptr;  // its sites are per partition (partitions_)
  };
  // A partitioned request's guarded partitions, each with the call that
  // guarded it.
  struct Partitions {
    std::int64_t stride = 0;  // bytes from one partition to the next
    std::vector<bool> guarded;
    std::vector<const char*> call;
    std::vector<std::uintptr_t> call_site;
  };
  // `whole_pages_lo/hi`: the watched range shrinks to the whole pages
  // within it at that edge (the edge page is shared with bytes the program
  // may use meanwhile), unless no whole page is left.
  void arm_buffer(Request& request, ProgramBuffer buffer, bool whole_pages_lo = false, bool whole_pages_hi = false);
  void drop_guards(Request& request);
  Partitions* partitions_of(Request& request);
  void guard_partitions(Request& request);
  void on_access(const sim::memory::MemoryWatch::GuardAccess& access);

  MpiModel* model_ = nullptr;
  bool on_ = false;
  std::unordered_map<int, Guard> guards_;  // by watch id
  std::unordered_map<const Request*, Partitions> partitions_;
};

}  // namespace progsim::mpi
