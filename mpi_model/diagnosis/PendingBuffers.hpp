// --check buffers: the program must leave the buffer of a pending
// nonblocking or persistent operation alone until the operation completes
// (MPI-4.1 §3.7.2: "the sender should not modify any part of the send buffer
// after a nonblocking send operation is called, until the send completes";
// "the receiver should not access any part of the receive buffer after a
// nonblocking receive operation is called, until the receive completes";
// §3.9 for persistent requests). Since MPI-3 reading a send buffer is
// allowed.
//
// The buffer's byte span is guarded by the memory watch (sim/memory/,
// MemoryWatch::guard) from the call that starts the operation until the
// program learns that it completed (MPI_Wait/MPI_Test and their multiple
// forms, MPI_Request_get_status with flag true, MPI_Request_free): writes
// to a send buffer, any access to a receive buffer, trap. An access by the
// program's code to a byte of the buffer's type map is a StandardError,
// once per started operation, naming the call that started it and the
// accessing instruction's line. Accesses outside the type map (other data
// on the same pages, the holes of a vector type) and the simulator's own
// (the model packs and unpacks when data moves) are let through.
//
// Off by default; when off nothing is guarded and nothing costs.
#pragma once

#include "core/Request.hpp"

#include "sim/memory/MemoryWatch.hpp"

#include <functional>
#include <unordered_map>

namespace progsim::mpi {

class MpiModel;

class PendingBuffers {
public:
  // Run start: `on` is ModelParameters::check_buffers.
  void start(MpiModel& model, bool on);
  bool on() const { return on_; }
  // The program started `request` (a nonblocking call returned its handle,
  // or MPI_Start): guards its buffer (a send-receive's two parts).
  void arm(Request& request);
  // The program knows it completed, or gave it up: the guard goes.
  void disarm(Request& request);
  // Runs `access`, the model reading (`write` false) or writing `request`'s
  // buffer, with its guarded pages opened (else each instruction traps).
  void model_access(const Request& request, bool write, const std::function<void()>& access) const;

private:
  struct Guard {
    int owner = 0;
    const char* call = "";       // the call that started it (MPI_Isend, MPI_Start)
    const char* operation = "";  // the request's (MPI_Isend, MPI_Send_init)
    std::uintptr_t call_site = 0;
    bool send = false;
    std::uintptr_t base = 0;  // request.buf
    std::int64_t count = 0;
    dt::DatatypePtr type;
    bool reported = false;
  };
  void arm_one(Request& request);
  void on_access(const sim::memory::MemoryWatch::GuardAccess& access);

  MpiModel* model_ = nullptr;
  bool on_ = false;
  std::unordered_map<int, Guard> guards_;  // by watch id
};

}  // namespace progsim::mpi
