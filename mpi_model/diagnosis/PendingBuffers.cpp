#include "diagnosis/PendingBuffers.hpp"

#include "MpiModel.hpp"
#include "diagnosis/CallSites.hpp"
#include "sim/CallScope.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"

#include <algorithm>

namespace progsim::mpi {

namespace {

// Bytes [lo, hi) from the buffer's address that `count` items of `type` may
// touch (items at i * extent, each within [true_lb, true_ub)).
struct Span {
  std::int64_t lo = 0, hi = 0;
};

Span span_of(const dt::Datatype& type, std::int64_t count)
{
  std::int64_t last = (count - 1) * type.extent();
  return {std::min<std::int64_t>(0, last) + type.true_lb(), std::max<std::int64_t>(0, last) + type.true_ub()};
}

// Whether byte `offset` (from the buffer's address) is one of the type map's
// bytes, not a hole between them. Unknown (too many items or pieces to look
// at) counts as a hole: nothing is reported then.
bool in_type_map(const dt::Datatype& type, std::int64_t count, std::int64_t offset)
{
  if (type.is_dense())
    return true;  // the span is the data
  constexpr std::int64_t kMaxItems = 64, kMaxPieces = 4096;
  std::int64_t extent = type.extent();
  if (extent <= 0 || type.segment_count() > kMaxPieces)
    return false;
  // Items i with i * extent + true_lb <= offset < i * extent + true_ub.
  std::int64_t first = std::max<std::int64_t>(0, (offset - type.true_ub()) / extent);
  std::int64_t last = std::min<std::int64_t>(count - 1, (offset - type.true_lb()) / extent);
  if (last - first >= kMaxItems)
    return false;
  bool found = false;
  for (std::int64_t i = first; i <= last && !found; ++i) {
    std::int64_t within = offset - i * extent;
    type.for_each_segment([&](std::int64_t piece, std::int64_t length) {
      found = found || (within >= piece && within < piece + length);
    });
  }
  return found;
}

}  // namespace

void PendingBuffers::start(MpiModel& model, bool on)
{
  model_ = &model;
  guards_.clear();
  sim::memory::MemoryWatch& watch = sim::memory::MemoryWatch::instance();
  on_ = on;  // the watch starts after the model: guard() refuses when it is off or unsupported
  if (on_)
    watch.set_guard_listener([this](const sim::memory::MemoryWatch::GuardAccess& a) { on_access(a); });
  else
    watch.set_guard_listener(nullptr);
}

void PendingBuffers::arm(Request& request)
{
  if (!on_)
    return;
  // A replay's buffers are the replay's own, shared with the simulator's
  // data (docs/traces.md): no program touches them.
  if (const sim::Rank* caller = sim::calling_rank(); caller && caller->trace_position.file)
    return;
  if (request.parts.empty())
    arm_one(request);
  for (const RequestPtr& part : request.parts)
    if (!request.staged || part->buf != request.staged->data())  // the packed copy of a _replace call is the library's
      arm_one(*part);
}

void PendingBuffers::arm_one(Request& request)
{
  // Point-to-point only; an operation that moves nothing (MPI_PROC_NULL, no
  // data) has no buffer the standard's rule could be about.
  bool send = request.kind == RequestKind::Send;
  if (!send && request.kind != RequestKind::Recv)
    return;
  if (!request.active() || request.buffer_guard >= 0 || request.bytes == 0 || request.count <= 0 || !request.type ||
      request.peer == MPI_PROC_NULL)
    return;
  Span span = span_of(*request.type, request.count);
  auto base = reinterpret_cast<std::uintptr_t>(request.buf);
  int id = sim::memory::MemoryWatch::instance().guard(request.owner,
                                                      reinterpret_cast<const void*>(base + static_cast<std::uintptr_t>(span.lo)),
                                                      static_cast<std::size_t>(span.hi - span.lo), send);
  if (id < 0)
    return;  // watch table full: not checked
  request.buffer_guard = id;
  // A persistent request's operation is started by MPI_Start: that call is the site.
  const char* call = request.persistent ? "MPI_Start" : request.call;
  std::uintptr_t site = request.persistent ? call_site_mark(sim::calling_rank()) : request.call_site;
  guards_[id] = Guard{request.owner, call, request.call, site, send, base, request.count, request.type, false};
}

void PendingBuffers::disarm(Request& request)
{
  for (const RequestPtr& part : request.parts)
    disarm(*part);
  if (request.buffer_guard < 0)
    return;
  sim::memory::MemoryWatch::instance().unwatch(request.buffer_guard);
  guards_.erase(request.buffer_guard);
  request.buffer_guard = -1;
}

void PendingBuffers::model_access(const Request& request, bool write, const std::function<void()>& access) const
{
  if (!on_ || request.count <= 0 || !request.type) {
    access();
    return;
  }
  Span span = span_of(*request.type, request.count);
  auto lo = reinterpret_cast<std::uintptr_t>(request.buf) + static_cast<std::uintptr_t>(span.lo);
  sim::memory::MemoryWatch::instance().simulator_access(reinterpret_cast<const void*>(lo),
                                                        static_cast<std::size_t>(span.hi - span.lo), write, access);
}

// In the rank, right after its access (normal context: the trampoline).
void PendingBuffers::on_access(const sim::memory::MemoryWatch::GuardAccess& access)
{
  auto it = guards_.find(access.watch);
  if (it == guards_.end() || it->second.reported)
    return;
  Guard& g = it->second;
  auto offset = static_cast<std::int64_t>(access.address - g.base);
  if (!in_type_map(*g.type, g.count, offset))
    return;
  g.reported = true;
  MpiModel& model = *model_;
  std::string where;
  if (model.parameters().call_sites)
    where = sim::memory::describe_rank_location(access.pc, model.simulation().options().program);
  StandardError e;
  e.rule = "buffer of a pending operation accessed";
  e.section = "MPI-4.1 §3.7.2";
  e.requirement = g.send ? "the program does not modify the send buffer of a nonblocking or persistent send until "
                           "the send completes (reading it is allowed)"
                         : "the program does not access the receive buffer of a nonblocking or persistent receive "
                           "until the receive completes";
  std::string rank = std::to_string(g.owner);
  e.what = "rank " + rank + (access.write ? " wrote to" : " read") + " byte " + std::to_string(offset) + " of the " +
           (g.send ? "send" : "receive") + " buffer of its " + g.operation +
           (g.call == g.operation ? "" : std::string(" started by ") + g.call) +
           " before the operation completed (MPI_Wait, MPI_Test...)";
  e.sites = {{g.owner, g.call, call_site_text(model, g.owner, g.call_site)},
             {g.owner, access.write ? "write" : "read", where}};
  e.time = model.simulation().rank(g.owner).clock().now();
  model.standard_errors().add(std::move(e));
}

}  // namespace progsim::mpi
