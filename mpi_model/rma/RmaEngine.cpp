#include "rma/RmaEngine.hpp"

#include "progress/RankProgress.hpp"
#include "sim/ActingTime.hpp"

#include <simgrid/s4u/Engine.hpp>

#include <algorithm>

namespace progsim::mpi::rma {

RmaEngine::RmaEngine(ProgressEngine& progress, Fabric& fabric, const ModelParameters& parameters, int world_size)
    : progress_(progress), fabric_(fabric), parameters_(parameters), tables_(static_cast<size_t>(world_size)),
      win_tests_(static_cast<size_t>(world_size)), blocked_(static_cast<size_t>(world_size))
{
}

std::shared_ptr<WindowShared> RmaEngine::join(int context, const GroupPtr& group, Flavor flavor)
{
  std::pair<int, int> key{context, *std::min_element(group->world_ranks().begin(), group->world_ranks().end())};
  auto it = joining_.find(key);
  if (it == joining_.end()) {
    auto w = std::make_shared<WindowShared>();
    w->id = ++next_window_id_;
    w->flavor = flavor;
    w->group = group;
    w->parts.resize(static_cast<size_t>(group->size()));
    for (int i = 0; i < group->size(); ++i)
      w->members.emplace_back(group->size());
    it = joining_.emplace(key, w).first;
  }
  std::shared_ptr<WindowShared> w = it->second;
  if (++w->registered == w->size())
    joining_.erase(it);  // every member has it: the key may be reused
  return w;
}

// --- sending ------------------------------------------------------------------

void RmaEngine::send(const std::shared_ptr<WindowShared>& w, MessageKind kind, int from, int to,
                     std::shared_ptr<Operation> op, std::uint64_t sent, int lock_type)
{
  auto m = std::make_shared<RmaMessage>();
  m->kind = kind;
  m->window = w;
  m->from = from;
  m->to = to;
  m->op = std::move(op);
  m->sent = sent;
  m->lock_type = lock_type;
  Packet p;
  p.kind = PacketKind::Rma;
  p.src = w->world_rank(from);
  p.dst = w->world_rank(to);
  std::size_t payload = 0;
  if (m->op)
    payload = kind == MessageKind::Operation ? m->op->request_bytes() : kind == MessageKind::Reply ? m->op->reply_bytes() : 0;
  p.wire_bytes = static_cast<std::size_t>(parameters_.header_bytes) + payload;
  p.data_bytes = payload;
  p.message_id = m->op ? m->op->id : 0;
  p.rma = std::move(m);
  fabric_.send(std::move(p));
}

bool RmaEngine::may_send(const WindowShared& w, const Operation& op) const
{
  const MemberState& s = w.members[static_cast<size_t>(op.origin)];
  return op.needs_posts == 0 || s.posts[static_cast<size_t>(op.target)] >= op.needs_posts;
}

void RmaEngine::send_operation(const std::shared_ptr<WindowShared>& w, const std::shared_ptr<Operation>& op)
{
  MemberState& s = w->members[static_cast<size_t>(op->origin)];
  op->sequence = ++s.issued[static_cast<size_t>(op->target)];
  if (op->fetches())
    ++s.fetching[static_cast<size_t>(op->target)];
  pack_origin(*op);
  send(w, MessageKind::Operation, op->origin, op->target, op);
}

void RmaEngine::submit(Window& w, const std::shared_ptr<Operation>& op)
{
  MemberState& s = w.state();
  // Request-based operations go at once: their request may be waited on
  // before any synchronization (MPI-4.1 §12.3.5).
  bool defer = !op->request && parameters_.rma_issue == "sync";
  // Keep the call order per origin: nothing overtakes a deferred operation.
  if (defer || !s.deferred.empty() || !may_send(*w.shared, *op)) {
    s.deferred.push_back(op);
    return;
  }
  send_operation(w.shared, op);
}

void RmaEngine::release_deferred(const std::shared_ptr<WindowShared>& w, int me, bool closing)
{
  MemberState& s = w->members[static_cast<size_t>(me)];
  bool sync_mode = parameters_.rma_issue == "sync";
  while (!s.deferred.empty()) {
    const std::shared_ptr<Operation>& op = s.deferred.front();
    if ((sync_mode && !closing && !op->request) || !may_send(*w, *op))
      return;
    std::shared_ptr<Operation> next = op;
    s.deferred.pop_front();
    send_operation(w, next);
  }
}

bool RmaEngine::acked(const Window& w, int target) const
{
  const MemberState& s = w.shared->members[static_cast<size_t>(w.me)];
  return s.acked[static_cast<size_t>(target)] >= s.issued[static_cast<size_t>(target)];
}

bool RmaEngine::fetched(const Window& w, int target) const
{
  return w.shared->members[static_cast<size_t>(w.me)].fetching[static_cast<size_t>(target)] == 0;
}

bool RmaEngine::all_acked(const Window& w) const
{
  for (int t = 0; t < w.shared->size(); ++t)
    if (!acked(w, t))
      return false;
  return w.shared->members[static_cast<size_t>(w.me)].deferred.empty();
}

// --- PSCW -------------------------------------------------------------------------

void RmaEngine::post(Window& w, const Group& origins, bool nocheck)
{
  MemberState& s = w.state();
  for (int world : origins.world_ranks()) {
    int o = w.shared->group->local_rank(world);
    ++s.exposure_epochs[static_cast<size_t>(o)];
    if (!nocheck)
      send(w.shared, MessageKind::Post, w.me, o);
  }
}

void RmaEngine::start(Window& w, const Group& targets)
{
  MemberState& s = w.state();
  for (int world : targets.world_ranks())
    ++s.access_epochs[static_cast<size_t>(w.shared->group->local_rank(world))];
}

bool RmaEngine::posted(const Window& w, int target) const
{
  const MemberState& s = w.shared->members[static_cast<size_t>(w.me)];
  return w.access_nocheck || s.posts[static_cast<size_t>(target)] >= s.access_epochs[static_cast<size_t>(target)];
}

void RmaEngine::complete(Window& w)
{
  MemberState& s = w.state();
  for (int world : w.access_group->world_ranks()) {
    int t = w.shared->group->local_rank(world);
    send(w.shared, MessageKind::Complete, w.me, t, nullptr, s.issued[static_cast<size_t>(t)]);
  }
}

bool RmaEngine::exposure_done(Window& w) const
{
  const MemberState& s = w.state();
  for (int world : w.exposure_group->world_ranks()) {
    auto o = static_cast<size_t>(w.shared->group->local_rank(world));
    if (s.completes[o] < s.exposure_epochs[o] || s.applied[o] < s.expected[o])
      return false;
  }
  return true;
}

void RmaEngine::end_exposure(Window& w)
{
  w.exposure_group.reset();
  local_accesses_.end_epoch(w, EpochKind::Pscw);
}

// --- passive target ------------------------------------------------------------------

void RmaEngine::request_lock(Window& w, int target, int type)
{
  send(w.shared, MessageKind::Lock, w.me, target, nullptr, 0, type);
}

bool RmaEngine::take_grant(Window& w, int target)
{
  MemberState& s = w.state();
  auto t = static_cast<size_t>(target);
  if (s.grants[t] <= s.grants_used[t])
    return false;
  ++s.grants_used[t];
  return true;
}

void RmaEngine::request_unlock(Window& w, int target)
{
  send(w.shared, MessageKind::Unlock, w.me, target);
}

bool RmaEngine::take_unlock_ack(Window& w, int target)
{
  MemberState& s = w.state();
  auto t = static_cast<size_t>(target);
  if (s.unlock_acks[t] <= s.unlock_acks_used[t])
    return false;
  ++s.unlock_acks_used[t];
  return true;
}

void RmaEngine::grant_waiting(const std::shared_ptr<WindowShared>& w, int target)
{
  MemberState& s = w->members[static_cast<size_t>(target)];
  // First come, first served: a waiting exclusive request holds back later
  // shared ones (no starvation).
  while (!s.lock_queue.empty()) {
    LockRequest r = s.lock_queue.front();
    bool free = r.type == MPI_LOCK_EXCLUSIVE ? s.exclusive < 0 && s.shared == 0 : s.exclusive < 0;
    if (!free)
      return;
    s.lock_queue.pop_front();
    if (r.type == MPI_LOCK_EXCLUSIVE)
      s.exclusive = r.origin;
    else
      ++s.shared;
    send(w, MessageKind::Grant, target, r.origin);
  }
}

// --- blocking ------------------------------------------------------------------------

void RmaEngine::block(int world_rank, BlockedRma what, const std::function<bool()>& done, const std::string& describe)
{
  if (done())
    return;
  blocked_[static_cast<size_t>(world_rank)] = std::make_unique<BlockedRma>(std::move(what));
  progress_.rank(world_rank).wait_until(done, [&describe] { return describe; });
  blocked_[static_cast<size_t>(world_rank)].reset();
}

const BlockedRma* RmaEngine::blocked(int world_rank) const
{
  return blocked_[static_cast<size_t>(world_rank)].get();
}

std::string RmaEngine::queued_chunk(int owner, ChunkStep step, int peer) const
{
  for (const ProgressChunk& c : progress_.rank(owner).host_queue())
    if (c.step == step && c.peer == peer)
      return c.describe();
  return "";
}

void RmaEngine::wake(const WindowShared& w, int local)
{
  progress_.rank(w.world_rank(local)).wake();
}

// --- applying operations in issue order ------------------------------------------------

// The network may deliver a later operation first (a small accumulate
// overtaking a large one; two equal transfers ending at one instant). The
// target applies each origin's operations in issue order, one chunk at a
// time: the default accumulate_ordering (rar,raw,war,waw, MPI-4.1 §12.7.2
// and §12.2.1) requires it for accumulates to the same location, and puts
// and gets get the same order, as on the ordered channels of MPICH's
// netmods (the standard leaves them unordered: stronger, allowed).
void RmaEngine::apply_next(const std::shared_ptr<WindowShared>& w, int target, int origin)
{
  MemberState& t = w->members[static_cast<size_t>(target)];
  auto o = static_cast<size_t>(origin);
  auto& waiting = t.arrived[o];
  if (t.applying[o] || waiting.empty() || waiting.begin()->first != t.applied[o] + 1)
    return;
  std::shared_ptr<RmaMessage> m = waiting.begin()->second;
  waiting.erase(waiting.begin());
  t.applying[o] = true;
  progress_.enable(w->world_rank(target), ChunkStep::RmaOpTarget, w->world_rank(origin), m->op->id,
                   m->op->request_bytes(), [this, m] {
                     Operation& op = *m->op;
                     const std::shared_ptr<WindowShared>& win = op.window;
                     MemberState& state = win->members[static_cast<size_t>(op.target)];
                     check_operation_types(op);
                     apply_at_target(op);
                     ++state.applied[static_cast<size_t>(op.origin)];
                     state.applying[static_cast<size_t>(op.origin)] = false;
                     send(win, MessageKind::Reply, op.target, op.origin, m->op);
                     wake(*win, op.target);
                     apply_next(win, op.target, op.origin);
                   });
}

// --- arrivals ------------------------------------------------------------------------

void RmaEngine::on_arrival(Packet&& packet)
{
  std::shared_ptr<RmaMessage> m = std::move(packet.rma);
  std::shared_ptr<WindowShared> w = m->op ? m->op->window : m->window;
  int owner = packet.dst;
  int peer = packet.src;
  switch (m->kind) {
    case MessageKind::Operation: {
      MemberState& t = w->members[static_cast<size_t>(m->op->target)];
      t.arrived[static_cast<size_t>(m->op->origin)].emplace(m->op->sequence, m);
      apply_next(w, m->op->target, m->op->origin);
      return;
    }
    case MessageKind::Reply: {
      // The origin's NIC writes the fetched data and notes the completion.
      Operation& op = *m->op;
      finish_at_origin(op);
      MemberState& s = w->members[static_cast<size_t>(op.origin)];
      ++s.acked[static_cast<size_t>(op.target)];
      if (op.fetches())
        --s.fetching[static_cast<size_t>(op.target)];
      if (op.request) {
        op.request->state = RequestState::Complete;
        op.request->complete_time = sim::acting_time();
      }
      wake(*w, op.origin);
      return;
    }
    case MessageKind::Post:
      progress_.enable(owner, ChunkStep::RmaPostOrigin, peer, 0, 0, [this, m, w] {
        ++w->members[static_cast<size_t>(m->to)].posts[static_cast<size_t>(m->from)];
        release_deferred(w, m->to, false);
        wake(*w, m->to);
      });
      return;
    case MessageKind::Complete:
      progress_.enable(owner, ChunkStep::RmaCompleteTarget, peer, 0, 0, [this, m, w] {
        MemberState& s = w->members[static_cast<size_t>(m->to)];
        auto o = static_cast<size_t>(m->from);
        ++s.completes[o];
        s.expected[o] = std::max(s.expected[o], m->sent);
        wake(*w, m->to);
      });
      return;
    case MessageKind::Lock:
      progress_.enable(owner, ChunkStep::RmaLockTarget, peer, 0, 0, [this, m, w] {
        w->members[static_cast<size_t>(m->to)].lock_queue.push_back({m->from, m->lock_type});
        grant_waiting(w, m->to);
      });
      return;
    case MessageKind::Grant:
      ++w->members[static_cast<size_t>(m->to)].grants[static_cast<size_t>(m->from)];
      wake(*w, m->to);
      return;
    case MessageKind::Unlock:
      progress_.enable(owner, ChunkStep::RmaUnlockTarget, peer, 0, 0, [this, m, w] {
        MemberState& s = w->members[static_cast<size_t>(m->to)];
        if (s.exclusive == m->from)
          s.exclusive = -1;
        else if (s.shared > 0)
          --s.shared;
        grant_waiting(w, m->to);
        send(w, MessageKind::UnlockAck, m->to, m->from);
      });
      return;
    case MessageKind::UnlockAck:
      ++w->members[static_cast<size_t>(m->to)].unlock_acks[static_cast<size_t>(m->from)];
      wake(*w, m->to);
      return;
  }
}

}  // namespace progsim::mpi::rma
