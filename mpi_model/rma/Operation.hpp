// One RMA communication operation (MPI-4.1 §12.3, §12.4) from its call to
// its completion at the origin, and the messages of the RMA protocols.
//
// Data is moved with the datatype engine: a put carries the packed stream
// of the origin buffer; accumulates carry (and combine) flat arrays of the
// single predefined element type of the datatypes, with the reduction
// engine (ops::apply). Memory is accessed through MemoryWatch so that a
// rank polling window memory wakes up at the write.
#pragma once

#include "core/Request.hpp"
#include "datatype/Datatype.hpp"
#include "ops/ReductionOp.hpp"
#include "sim/memory/WriteCause.hpp"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace progsim::mpi::rma {

struct WindowShared;

enum class OpKind { Put, Get, Accumulate, GetAccumulate, CompareAndSwap };

struct Operation {
  std::uint64_t id = 0;
  OpKind kind = OpKind::Put;
  const char* call = "";
  std::uintptr_t call_site = 0;  // where the origin called it (diagnosis/CallSites.hpp)
  std::shared_ptr<WindowShared> window;
  int origin = 0;  // local ranks in the window's group
  int target = 0;
  // The origin's trace event that issued it, when a trace is recorded or
  // replayed: a rank polling the target memory waits for it (MemoryWatch).
  sim::memory::WriteCause cause;

  // Origin buffer (put, accumulates); packed when the operation is sent.
  const void* origin_addr = nullptr;
  std::int64_t origin_count = 0;
  dt::DatatypePtr origin_type;
  std::vector<std::byte> data;     // put: packed stream; accumulates: flat elements
  std::vector<std::byte> compare;  // compare-and-swap: the compare element

  // Target memory.
  char* target_addr = nullptr;
  std::int64_t target_count = 0;
  dt::DatatypePtr target_type;

  // Accumulates: the operation and the element type of both sides.
  ops::OpId op = ops::OpId::Replace;
  int element_index = 0;
  dt::DatatypePtr element_type;
  std::int64_t elements = 0;  // target elements (target_count * elements per item)

  // Where the fetched data goes at the origin (get, get-accumulate, fetch-and-op, compare-and-swap).
  void* result_addr = nullptr;
  std::int64_t result_count = 0;
  dt::DatatypePtr result_type;
  std::vector<std::byte> reply;

  RequestPtr request;  // MPI_Rput & co.
  // Issue order among the operations of this origin to this target on this
  // window (1, 2, ...): the target applies them in this order.
  std::uint64_t sequence = 0;
  // In a PSCW access epoch: the target's posts the origin must have seen
  // before the operation may go (0: none needed).
  std::uint64_t needs_posts = 0;

  // Payload bytes of the request and reply messages.
  std::size_t request_bytes() const;
  std::size_t reply_bytes() const;
  bool fetches() const { return kind != OpKind::Put && kind != OpKind::Accumulate; }
};

// At the origin, when the operation is sent: reads the origin buffer.
void pack_origin(Operation& op);
// At the target, before applying it: a put's origin and target type
// signatures, a get's target and origin ones, must be equal (MPI-4.1
// §12.3.1, §12.3.2); else a StandardError (OperationTypes.cpp).
void check_operation_types(Operation& op);
// At the target (a progress chunk): applies the operation to the window
// memory and fills the reply of fetching operations.
void apply_at_target(Operation& op);
// At the origin, when the reply arrives: writes the fetched data.
void finish_at_origin(Operation& op);

// Byte offsets [lo, hi) that `count` items of `type` touch around their base.
std::pair<std::int64_t, std::int64_t> typed_span(std::int64_t count, const dt::Datatype& type);

enum class MessageKind { Operation, Reply, Post, Complete, Lock, Grant, Unlock, UnlockAck };
const char* to_string(MessageKind kind);

// What an RMA packet carries (transport/Packet.hpp, kind Rma).
struct RmaMessage {
  MessageKind kind = MessageKind::Operation;
  std::shared_ptr<WindowShared> window;
  int from = 0;  // local ranks in the window's group
  int to = 0;
  std::shared_ptr<Operation> op;  // Operation, Reply
  std::uint64_t sent = 0;         // Complete: operations the origin sent to this target in total
  int lock_type = MPI_LOCK_SHARED;
};

}  // namespace progsim::mpi::rma
