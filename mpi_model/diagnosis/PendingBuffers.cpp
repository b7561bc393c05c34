#include "diagnosis/PendingBuffers.hpp"

#include "MpiModel.hpp"
#include "diagnosis/CallSites.hpp"
#include "sim/CallScope.hpp"
#include "sim/Rank.hpp"
#include "sim/Simulation.hpp"
#include "sim/memory/CodeLocation.hpp"
#include "sim/memory/WatchTable.hpp"

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

// The bytes a buffer's blocks may touch, from its base; empty without data.
Span span_of(const ProgramBuffer& buffer)
{
  Span all{0, 0};
  bool first = true;
  for (const ProgramBuffer::Block& b : buffer.blocks) {
    Span s = span_of(*b.type, b.count);
    if (first) {
      all = {b.offset + s.lo, b.offset + s.hi};
      first = false;
    } else {
      all = {std::min(all.lo, b.offset + s.lo), std::max(all.hi, b.offset + s.hi)};
    }
  }
  return all;
}

// Whether byte `offset` (from the buffer's address) is one of the type map's
// bytes, not a hole between them. Unknown (too many items or pieces to look
// at) counts as a hole: nothing is reported then.
bool in_type_map(const dt::Datatype& type, std::int64_t count, std::int64_t offset)
{
  if (type.is_dense()) {
    Span s = span_of(type, count);
    return offset >= s.lo && offset < s.hi;
  }
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

bool in_type_map(const ProgramBuffer& buffer, std::int64_t offset)
{
  return std::any_of(buffer.blocks.begin(), buffer.blocks.end(), [&](const ProgramBuffer::Block& b) {
    return in_type_map(*b.type, b.count, offset - b.offset);
  });
}

// A point-to-point request's buffer: buf, count items of type.
ProgramBuffer buffer_of(const Request& request)
{
  bool send = request.kind == RequestKind::Send;
  return ProgramBuffer{request.buf, send, send ? "send" : "receive", {{0, request.count, request.type}}};
}

// What the rule asks, by the kind of operation.
struct Rule {
  const char* section;
  std::string requirement;
};

Rule rule_of(RequestKind kind, bool send)
{
  switch (kind) {
    case RequestKind::Collective:
      return {"MPI-4.1 §6.12",
              send ? "the program does not modify a send buffer of a nonblocking or persistent collective until the "
                     "collective completes (reading it is allowed)"
                   : "the program does not access a receive buffer of a nonblocking or persistent collective until "
                     "the collective completes"};
    case RequestKind::Rma:
      return {"MPI-4.1 §12.3, §12.3.5",
              send ? "the program does not modify the origin buffer of an RMA operation until the operation "
                     "completes at the origin (reading it is allowed)"
                   : "the program does not access the buffer into which an RMA operation fetches data until the "
                     "operation completes at the origin"};
    case RequestKind::Partitioned:
      return {"MPI-4.1 §4.2.2",
              send ? "the program does not modify a partition of a partitioned send buffer after marking it ready "
                     "(MPI_Pready) until the send completes (reading it is allowed)"
                   : "the program does not access a partition of a partitioned receive buffer after MPI_Start until "
                     "MPI_Parrived reports that the partition arrived or the receive completes"};
    default:
      return {"MPI-4.1 §3.7.2",
              send ? "the program does not modify the send buffer of a nonblocking or persistent send until the "
                     "send completes (reading it is allowed)"
                   : "the program does not access the receive buffer of a nonblocking or persistent receive until "
                     "the receive completes"};
  }
}

// A replay's buffers are the replay's own, shared with the simulator's
// data (docs/traces.md): no program touches them.
bool replaying()
{
  const sim::Rank* caller = sim::calling_rank();
  return caller && caller->trace_position.file;
}

// Drops the blocks without data; false when nothing is left to guard.
bool keep_data_blocks(ProgramBuffer& buffer)
{
  buffer.blocks.erase(std::remove_if(buffer.blocks.begin(), buffer.blocks.end(),
                                     [](const ProgramBuffer::Block& b) {
                                       return b.count <= 0 || !b.type || b.type->size() == 0;
                                     }),
                      buffer.blocks.end());
  return buffer.base && buffer.base != MPI_IN_PLACE && !buffer.blocks.empty();
}

// The addresses [lo, hi) the guard of `buffer` watches; with `whole_pages_lo`
// or `whole_pages_hi` that edge shrinks to a page boundary (the edge page is
// shared with bytes the program may use meanwhile) unless no whole page is
// left (a small buffer's few accesses may trap).
std::pair<std::uintptr_t, std::uintptr_t> watched_range(const ProgramBuffer& buffer, bool whole_pages_lo,
                                                        bool whole_pages_hi)
{
  Span span = span_of(buffer);
  auto base = reinterpret_cast<std::uintptr_t>(buffer.base);
  std::uintptr_t lo = base + static_cast<std::uintptr_t>(span.lo);
  std::uintptr_t hi = base + static_cast<std::uintptr_t>(span.hi);
  std::uintptr_t page = sim::memory::WatchTable::page_size();
  std::uintptr_t whole_lo = whole_pages_lo ? (lo + page - 1) & ~(page - 1) : lo;
  std::uintptr_t whole_hi = whole_pages_hi ? hi & ~(page - 1) : hi;
  if (whole_lo < whole_hi)
    return {whole_lo, whole_hi};
  return {lo, hi};
}

}  // namespace

void PendingBuffers::start(MpiModel& model, bool on)
{
  model_ = &model;
  guards_.clear();
  partitions_.clear();
  sim::memory::MemoryWatch& watch = sim::memory::MemoryWatch::instance();
  on_ = on;  // the watch starts after the model: guard() refuses when it is off or unsupported
  if (on_)
    watch.set_guard_listener(this, [this](const sim::memory::MemoryWatch::GuardAccess& a) { on_access(a); });
  else
    watch.set_guard_listener(this, nullptr);
}

void PendingBuffers::arm(Request& request)
{
  if (!on_)
    return;
  if (replaying())
    return;
  if (request.kind == RequestKind::Partitioned) {
    // A send's partitions are the program's until MPI_Pready; a receive's
    // are all the operation's from MPI_Start (MPI-4.1 §4.2.2).
    if (request.rare().partitioned && !request.rare().partitioned->sends() && request.active())
      if (Partitions* p = partitions_of(request)) {
        p->guarded.assign(p->guarded.size(), true);
        p->call.assign(p->guarded.size(), "MPI_Start");
        p->call_site.assign(p->guarded.size(), call_site_mark(sim::calling_rank()));
        guard_partitions(request);
      }
    return;
  }
  if (request.kind == RequestKind::Collective || request.kind == RequestKind::Rma) {
    if (!request.active() || !request.rare().buffer_guards.empty())
      return;
    for (const ProgramBuffer& buffer : request.rare().program_buffers)
      arm_buffer(request, buffer);
    return;
  }
  // Point-to-point; an operation that moves nothing (MPI_PROC_NULL, no
  // data) has no buffer the standard's rule could be about.
  auto arm_p2p = [this](Request& r) {
    if ((r.kind == RequestKind::Send || r.kind == RequestKind::Recv) && r.active() && r.rare().buffer_guards.empty() &&
        r.bytes > 0 && r.peer != MPI_PROC_NULL)
      arm_buffer(r, buffer_of(r));
  };
  if (request.rare().parts.empty())
    arm_p2p(request);
  for (const RequestPtr& part : request.rare().parts)
    if (!request.staged || part->buf != request.staged->data())  // the packed copy of a _replace call is the library's
      arm_p2p(*part);
}

void PendingBuffers::arm_buffer(Request& request, ProgramBuffer buffer, bool whole_pages_lo, bool whole_pages_hi)
{
  if (!keep_data_blocks(buffer))
    return;
  auto [lo, hi] = watched_range(buffer, whole_pages_lo, whole_pages_hi);
  int id = sim::memory::MemoryWatch::instance().guard(request.owner, reinterpret_cast<const void*>(lo), hi - lo,
                                                      buffer.send);
  if (id < 0)
    return;  // watch table full: not checked
  request.writable_rare().buffer_guards.push_back(id);
  // A persistent request's operation is started by MPI_Start: that call is the site.
  const char* call = request.persistent ? "MPI_Start" : request.call;
  std::uintptr_t site = request.persistent ? call_site_mark(sim::calling_rank()) : request.call_site;
  guards_[id] = Guard{request.owner, call, request.call, site, request.kind, std::move(buffer), false};
}

void PendingBuffers::disarm(Request& request)
{
  for (const RequestPtr& part : request.rare().parts)
    disarm(*part);
  drop_guards(request);
  partitions_.erase(&request);
}

void PendingBuffers::drop_guards(Request& request)
{
  for (int id : request.rare().buffer_guards) {
    sim::memory::MemoryWatch::instance().unwatch(id);
    guards_.erase(id);
  }
  if (!request.rare().buffer_guards.empty())
    request.writable_rare().buffer_guards.clear();
}

void PendingBuffers::partitions_ready(Request& request, const std::vector<int>& partitions, const char* call)
{
  if (!on_ || !request.rare().partitioned || !request.rare().partitioned->sends() || replaying())
    return;
  Partitions* p = partitions_of(request);
  if (!p)
    return;
  CallSiteMark site = call_site_mark(sim::calling_rank());
  for (int i : partitions) {
    auto k = static_cast<std::size_t>(i);
    p->guarded[k] = true;
    p->call[k] = call;
    p->call_site[k] = site;
  }
  guard_partitions(request);
}

// The request's partition state, made with none guarded; null when it moves
// no data (no buffer the rule could be about).
PendingBuffers::Partitions* PendingBuffers::partitions_of(Request& request)
{
  if (request.count <= 0 || !request.type || request.peer == MPI_PROC_NULL)
    return nullptr;
  auto n = static_cast<std::size_t>(request.rare().partitioned->partitions());
  Partitions& p = partitions_[&request];
  if (p.guarded.size() != n) {
    p.stride = request.count / static_cast<std::int64_t>(n) * request.type->extent();
    p.guarded.assign(n, false);
    p.call.assign(n, "");
    p.call_site.assign(n, 0);
  }
  return &p;
}

void PendingBuffers::partition_arrived(Request& request, int partition)
{
  auto it = partitions_.find(&request);
  if (it == partitions_.end() || !it->second.guarded[static_cast<std::size_t>(partition)])
    return;
  it->second.guarded[static_cast<std::size_t>(partition)] = false;
  guard_partitions(request);
}

// One guard over the request's guarded partitions: a block per run of
// them, so that the others, between the runs, are let through as holes
// (and the watch table holds one entry per request however many runs).
// The program fills the next send partition, or reads the last arrived
// one, beside the guarded ones: the pages shared with such an unguarded
// neighbour are left unguarded, else each of its accesses would trap
// (MPICH part/start_pready, 512 partitions of 64 KiB: over 30 s, now 2.4 s
// against 1.6 s unchecked). Accesses to the guarded bytes of those edge
// pages are not seen.
void PendingBuffers::guard_partitions(Request& request)
{
  const Partitions& p = partitions_.at(&request);
  std::int64_t per_partition = request.count / static_cast<std::int64_t>(p.guarded.size());
  ProgramBuffer buffer{request.buf, request.rare().partitioned->sends(), request.rare().partitioned->sends() ? "send" : "receive", {}};
  for (std::size_t i = 0; i < p.guarded.size();) {
    if (!p.guarded[i]) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < p.guarded.size() && p.guarded[end])
      ++end;
    buffer.blocks.push_back({static_cast<std::int64_t>(i) * p.stride,
                             static_cast<std::int64_t>(end - i) * per_partition, request.type});
    i = end;
  }
  bool first_guarded = p.guarded.front();  // partitions_of made at least one
  bool last_guarded = p.guarded.back();
  // A guard in place moves: only the pages that change are (un)protected
  // (MPICH part/start_pready readies 512 partitions of 16 pages one by one).
  if (request.rare().buffer_guards.size() == 1 && keep_data_blocks(buffer)) {
    int id = request.rare().buffer_guards.front();
    auto [lo, hi] = watched_range(buffer, !first_guarded, !last_guarded);
    if (sim::memory::MemoryWatch::instance().resize_guard(id, reinterpret_cast<const void*>(lo), hi - lo)) {
      guards_.at(id).buffer = std::move(buffer);
      return;
    }
  }
  drop_guards(request);
  arm_buffer(request, std::move(buffer), !first_guarded, !last_guarded);
  for (int id : request.rare().buffer_guards)
    guards_.at(id).partitioned = &request;
}

void PendingBuffers::model_access(const Request& request, bool write, const std::function<void()>& access) const
{
  if (!on_ || request.count <= 0 || !request.type) {
    access();
    return;
  }
  model_access(request.buf, *request.type, 0, request.count, write, access);
}

void PendingBuffers::model_access(const void* buf, const dt::Datatype& type, std::int64_t first, std::int64_t count,
                                  bool write, const std::function<void()>& access) const
{
  if (!on_ || count <= 0) {
    access();
    return;
  }
  Span span = span_of(type, count);
  auto lo = reinterpret_cast<std::uintptr_t>(buf) + static_cast<std::uintptr_t>(first * type.extent() + span.lo);
  sim::memory::MemoryWatch::instance().simulator_access(reinterpret_cast<const void*>(lo),
                                                        static_cast<std::size_t>(span.hi - span.lo), write, access);
}

void PendingBuffers::model_access_all(const Request& request, const std::function<void()>& access) const
{
  std::function<void(std::size_t)> open_from = [&](std::size_t i) {
    if (i == request.rare().buffer_guards.size()) {
      access();
      return;
    }
    auto it = guards_.find(request.rare().buffer_guards[i]);
    if (it == guards_.end()) {
      open_from(i + 1);
      return;
    }
    const ProgramBuffer& buffer = it->second.buffer;
    Span span = span_of(buffer);
    auto lo = reinterpret_cast<std::uintptr_t>(buffer.base) + static_cast<std::uintptr_t>(span.lo);
    sim::memory::MemoryWatch::instance().simulator_access(reinterpret_cast<const void*>(lo),
                                                          static_cast<std::size_t>(span.hi - span.lo), !buffer.send,
                                                          [&] { open_from(i + 1); });
  };
  open_from(0);
}

// In the rank, right after its access (normal context: the trampoline).
void PendingBuffers::on_access(const sim::memory::MemoryWatch::GuardAccess& access)
{
  auto it = guards_.find(access.watch);
  if (it == guards_.end() || it->second.reported)
    return;
  Guard& g = it->second;
  auto offset = static_cast<std::int64_t>(access.address - reinterpret_cast<std::uintptr_t>(g.buffer.base));
  if (!in_type_map(g.buffer, offset))
    return;
  g.reported = true;
  // A partitioned request's byte: its partition's guarding call.
  const char* call = g.call;
  std::uintptr_t call_site = g.call_site;
  std::string partition;
  if (auto p = g.partitioned ? partitions_.find(g.partitioned) : partitions_.end();
      p != partitions_.end() && p->second.stride > 0) {
    auto i = static_cast<std::size_t>(
        std::clamp<std::int64_t>(offset / p->second.stride, 0, static_cast<std::int64_t>(p->second.guarded.size()) - 1));
    call = p->second.call[i];
    call_site = p->second.call_site[i];
    partition = " (partition " + std::to_string(i) + ")";
  }
  MpiModel& model = *model_;
  std::string where;
  if (model.parameters().call_sites)
    where = sim::memory::describe_rank_location(access.pc, model.simulation().options().program);
  Rule rule = rule_of(g.kind, g.buffer.send);
  StandardError e;
  e.rule = "buffer of a pending operation accessed";
  e.section = rule.section;
  e.requirement = std::move(rule.requirement);
  std::string rank = std::to_string(g.owner);
  bool ready = g.kind == RequestKind::Partitioned && g.buffer.send;
  e.what = "rank " + rank + (access.write ? " wrote to" : " read") + " byte " + std::to_string(offset) + partition +
           " of the " + g.buffer.role + " buffer of its " + g.operation +
           (call == g.operation ? "" : std::string(ready ? " marked ready by " : " started by ") + call) +
           (g.kind == RequestKind::Partitioned && !g.buffer.send
                ? " before the operation completed or MPI_Parrived reported the partition"
                : " before the operation completed (MPI_Wait, MPI_Test...)");
  e.sites = {{g.owner, call, call_site_text(model, g.owner, call_site)},
             {g.owner, access.write ? "write" : "read", where}};
  e.time = model.simulation().rank(g.owner).clock().now();
  model.standard_errors().add(std::move(e));
}

}  // namespace progsim::mpi
