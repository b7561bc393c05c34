#include "rma/Operation.hpp"

#include "datatype/Pack.hpp"
#include "rma/AttachedRegions.hpp"
#include "rma/Window.hpp"
#include "sim/memory/MemoryWatch.hpp"

#include <algorithm>
#include <cstring>

namespace progsim::mpi::rma {

namespace {

// Runs `access` on the memory `count` items of `type` at `base` touch, with
// watched pages opened (window memory is watched for busy-waiting ranks).
template <class F>
void with_memory(const void* base, std::int64_t count, const dt::Datatype& type, bool write, F&& access,
                 const sim::memory::WriteCause& cause = {})
{
  auto [lo, hi] = typed_span(count, type);
  if (hi <= lo) {
    access();
    return;
  }
  sim::memory::MemoryWatch::instance().simulator_access(static_cast<const char*>(base) + lo,
                                                        static_cast<std::size_t>(hi - lo), write, access, cause);
}

// The always-writable simulator view of the target memory the operation
// touches, when the window memory is a SharedMemory (MPI_Win_allocate,
// MPI_Win_allocate_shared); nullptr otherwise.
char* simulator_view(const Operation& op, std::int64_t lo, std::int64_t hi)
{
  if (!op.window)
    return nullptr;  // an operation on bare memory (unit tests)
  const WindowShared& w = *op.window;
  const sim::memory::SharedMemory* memory = nullptr;
  if (w.flavor == Flavor::Shared)
    memory = &w.segment;
  else if (w.flavor == Flavor::Allocate)
    memory = &w.parts[static_cast<size_t>(op.target)].memory;
  if (!memory || !memory->user || !memory->simulator)
    return nullptr;
  const char* user = static_cast<const char*>(memory->user);
  if (op.target_addr + lo < user || op.target_addr + hi > user + memory->mapped)
    return nullptr;
  return static_cast<char*>(memory->simulator_address(op.target_addr));
}

// Runs access(address) on the target memory of `count` items of `type`.
// Window memory MPI allocated is accessed through its simulator view and
// pollers are told of writes: opening and re-protecting a watched page
// around each operation cost two mprotect calls with TLB flushes, most of
// the run time of MPICH's atomic_* tests (6 million accumulates).
template <class F>
void with_target_memory(const Operation& op, std::int64_t count, const dt::Datatype& type, bool write, F&& access)
{
  auto [lo, hi] = typed_span(count, type);
  if (hi > lo) {
    if (char* view = simulator_view(op, lo, hi)) {
      access(view);
      if (write)
        sim::memory::MemoryWatch::instance().notify_write(op.target_addr + lo, static_cast<std::size_t>(hi - lo),
                                                          op.cause);
      return;
    }
  }
  with_memory(op.target_addr, count, type, write, [&] { access(op.target_addr); }, op.cause);
}

std::size_t element_bytes(const Operation& op)
{
  return static_cast<std::size_t>(op.elements * op.element_type->extent());
}

}  // namespace

std::pair<std::int64_t, std::int64_t> typed_span(std::int64_t count, const dt::Datatype& type)
{
  if (count <= 0 || type.size() == 0)
    return {0, 0};
  std::int64_t last = (count - 1) * type.extent();
  return {type.true_lb() + std::min<std::int64_t>(0, last), type.true_ub() + std::max<std::int64_t>(0, last)};
}

std::size_t Operation::request_bytes() const
{
  return data.size() + compare.size();
}

std::size_t Operation::reply_bytes() const
{
  return reply.size();
}

void pack_origin(Operation& op)
{
  switch (op.kind) {
    case OpKind::Get: return;
    case OpKind::Put: {
      op.data.resize(static_cast<std::size_t>(dt::packed_size(*op.origin_type, op.origin_count)));
      std::size_t position = 0;
      with_memory(op.origin_addr, op.origin_count, *op.origin_type, false, [&] {
        dt::pack(op.origin_addr, op.origin_count, *op.origin_type, op.data.data(), op.data.size(), position);
      });
      return;
    }
    case OpKind::Accumulate:
    case OpKind::GetAccumulate:
    case OpKind::CompareAndSwap: {
      if (op.op == ops::OpId::NoOp)
        return;  // MPI_NO_OP ignores the origin buffer (MPI-4.1 §12.3.4)
      if (op.elements == 0)
        return;  // zero count or a zero-size datatype: no element type either
      op.data.resize(element_bytes(op));
      with_memory(op.origin_addr, op.origin_count, *op.origin_type, false, [&] {
        dt::copy_typed(op.origin_addr, op.origin_count, *op.origin_type, op.data.data(), op.elements,
                       *op.element_type);
      });
      return;
    }
  }
}

void apply_at_target(Operation& op)
{
  // Whatever it wrote (or not: a get, a failed compare), the operation is
  // made: a replay's rank waiting for it goes on (MemoryWatch::replay_wait).
  struct Applied {
    const sim::memory::WriteCause& cause;
    ~Applied() { sim::memory::MemoryWatch::instance().operation_applied(cause); }
  } applied{op.cause};
  relocate_target(op);  // its target region moved meanwhile (a replay's)
  const dt::Datatype& type = *op.target_type;
  switch (op.kind) {
    case OpKind::Put:
      with_target_memory(op, op.target_count, type, true, [&](char* target) {
        std::size_t position = 0;
        dt::unpack(op.data.data(), op.data.size(), position, target, op.target_count, type);
      });
      return;
    case OpKind::Get:
      op.reply.resize(static_cast<std::size_t>(dt::packed_size(type, op.target_count)));
      with_target_memory(op, op.target_count, type, false, [&](char* target) {
        std::size_t position = 0;
        dt::pack(target, op.target_count, type, op.reply.data(), op.reply.size(), position);
      });
      return;
    case OpKind::Accumulate:
    case OpKind::GetAccumulate: {
      if (op.elements == 0)
        return;
      // One element at a time, in index order: accumulates to one location
      // are atomic with respect to each other (MPI-4.1 §12.7.1).
      std::vector<std::byte> flat(element_bytes(op));
      bool writes = op.op != ops::OpId::NoOp;
      with_target_memory(op, op.target_count, type, writes, [&](char* target) {
        dt::copy_typed(target, op.target_count, type, flat.data(), op.elements, *op.element_type);
        if (op.kind == OpKind::GetAccumulate)
          op.reply = flat;
        if (!writes)
          return;
        ops::apply(op.op, op.element_index, op.data.data(), flat.data(), op.elements);
        dt::copy_typed(flat.data(), op.elements, *op.element_type, target, op.target_count, type);
      });
      return;
    }
    case OpKind::CompareAndSwap: {
      std::size_t n = static_cast<std::size_t>(type.size());
      op.reply.resize(n);
      with_target_memory(op, 1, type, true, [&](char* target) {
        std::memcpy(op.reply.data(), target, n);
        if (std::memcmp(op.reply.data(), op.compare.data(), n) == 0)
          std::memcpy(target, op.data.data(), n);
      });
      return;
    }
  }
}

void finish_at_origin(Operation& op)
{
  if (!op.fetches() || !op.result_type || (op.kind != OpKind::Get && op.elements == 0))
    return;
  with_memory(op.result_addr, op.result_count, *op.result_type, true, [&] {
    if (op.kind == OpKind::Get) {
      std::size_t position = 0;
      dt::unpack(op.reply.data(), op.reply.size(), position, op.result_addr, op.result_count, *op.result_type);
    } else {
      dt::copy_typed(op.reply.data(), op.elements, *op.element_type, op.result_addr, op.result_count,
                     *op.result_type);
    }
  });
}

const char* to_string(MessageKind kind)
{
  switch (kind) {
    case MessageKind::Operation: return "operation";
    case MessageKind::Reply: return "reply";
    case MessageKind::Post: return "post";
    case MessageKind::Complete: return "complete";
    case MessageKind::Lock: return "lock";
    case MessageKind::Grant: return "grant";
    case MessageKind::Unlock: return "unlock";
    case MessageKind::UnlockAck: return "unlock-ack";
  }
  return "?";
}

}  // namespace progsim::mpi::rma
