#include "diagnosis/RmaWaits.hpp"

#include "p2p/PointToPoint.hpp"
#include "progress/ProgressEngine.hpp"
#include "rma/RmaEngine.hpp"

namespace progsim::mpi {

namespace {

std::string rank_text(int world)
{
  return "rank " + std::to_string(world);
}

// A wait for a decoupled activity of `owner` (a chunk queued there, if any).
WaitEdge chunk_edge(const rma::RmaEngine& rma, int from, int owner, ChunkStep step, const std::string& what)
{
  WaitEdge e;
  e.from = from;
  e.to = owner;
  e.kind = WaitKind::ProgressChunk;
  e.chunk = rma.queued_chunk(owner, step, from);
  e.waits_for = what + ": a decoupled activity (progress chunk" + (e.chunk.empty() ? std::string() : " " + e.chunk) +
                ") that " + rank_text(owner) + "'s MPI library must execute";
  return e;
}

WaitEdge call_edge(int from, int to, const std::string& what)
{
  WaitEdge e;
  e.from = from;
  e.to = to;
  e.kind = WaitKind::MatchingCall;
  e.waits_for = what;
  return e;
}

}  // namespace

void RmaWaits::wait_edges(int rank, std::vector<WaitEdge>& edges) const
{
  for (const RequestPtr& r : p2p_.waited(rank))
    if (r->kind == RequestKind::Rma && !r->complete())
      edges.push_back(chunk_edge(rma_, rank, r->peer_world, ChunkStep::RmaOpTarget,
                                 "the completion of its " + std::string(r->call) + " at " + rank_text(r->peer_world)));
  const rma::BlockedRma* b = rma_.blocked(rank);
  if (!b)
    return;
  const rma::WindowShared& w = *b->window;
  const rma::MemberState& me = w.members[static_cast<size_t>(b->me)];
  std::string window = " (" + w.name() + ")";
  for (int peer : b->peers) {
    auto p = static_cast<size_t>(peer);
    int world = w.world_rank(peer);
    switch (b->what) {
      case rma::BlockedRma::Posts:
        if (me.posts[p] < me.access_epochs[p]) {
          WaitEdge e = call_edge(rank, world, "a matching MPI_Win_post on " + rank_text(world) + window);
          if (b->freedom)
            e.freedom = "MPI_Win_start may block until the matching MPI_Win_post or return at once "
                        "(MPI-4.1 §12.5.2, an implementation freedom; --cfg win-start-blocks=no)";
          edges.push_back(e);
        }
        break;
      case rma::BlockedRma::Completes:
        if (me.completes[p] < me.exposure_epochs[p])
          edges.push_back(call_edge(rank, world, "a matching MPI_Win_complete on " + rank_text(world) + window +
                                                     " (MPI_Win_wait returns only after the origins' complete)"));
        break;
      case rma::BlockedRma::Acks:
        if (me.acked[p] < me.issued[p])
          edges.push_back(chunk_edge(rma_, rank, world, ChunkStep::RmaOpTarget,
                                     std::to_string(me.issued[p] - me.acked[p]) + " RMA operation(s) that " +
                                         rank_text(world) + " must apply to its window memory" + window));
        break;
      case rma::BlockedRma::Grant: {
        const rma::MemberState& target = w.members[p];
        std::string queued = rma_.queued_chunk(world, ChunkStep::RmaLockTarget, rank);
        if (!queued.empty() || (target.exclusive < 0 && target.shared == 0)) {
          edges.push_back(chunk_edge(rma_, rank, world, ChunkStep::RmaLockTarget,
                                     "the lock grant of " + rank_text(world) + window));
        } else if (target.exclusive >= 0) {
          int holder = w.world_rank(target.exclusive);
          edges.push_back(call_edge(rank, holder, "MPI_Win_unlock on " + rank_text(holder) +
                                                      ", which holds the exclusive lock of " + rank_text(world) +
                                                      "'s window" + window));
        } else {
          edges.push_back(call_edge(rank, -1, "the shared lock holders of " + rank_text(world) + "'s window" +
                                                  window + " to call MPI_Win_unlock"));
        }
        break;
      }
      case rma::BlockedRma::UnlockAck:
        edges.push_back(chunk_edge(rma_, rank, world, ChunkStep::RmaUnlockTarget,
                                   "the release of its lock by " + rank_text(world) + window));
        break;
    }
  }
}

std::string RmaWaits::pending(int rank) const
{
  const rma::BlockedRma* b = rma_.blocked(rank);
  return b ? "its RMA synchronization on " + b->window->name() : "";
}

}  // namespace progsim::mpi
