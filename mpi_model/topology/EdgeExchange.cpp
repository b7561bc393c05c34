#include "topology/EdgeExchange.hpp"

#include <mpi.h>

namespace progsim::mpi::topology {

namespace {

// Wire format: (kind, peer, weight) per edge; kind kOut tells the receiver
// an edge leaving it towards peer, kIn an edge arriving from peer.
constexpr int kOut = 0;
constexpr int kIn = 1;

void add(Adjacency& mine, const int* triple, bool weighted)
{
  if (triple[0] == kOut) {
    mine.destinations.push_back(triple[1]);
    if (weighted)
      mine.destination_weights.push_back(triple[2]);
  } else {
    mine.sources.push_back(triple[1]);
    if (weighted)
      mine.source_weights.push_back(triple[2]);
  }
}

}  // namespace

int exchange_edges(const coll::CollCall& c, const std::vector<Edge>& named, bool weighted, Adjacency& mine)
{
  int n = c.size();
  int me = c.me();
  auto u = [](int i) { return static_cast<size_t>(i); };
  std::vector<std::vector<int>> outgoing(u(n));
  for (const Edge& e : named) {
    outgoing[u(e.source)].insert(outgoing[u(e.source)].end(), {kOut, e.destination, e.weight});
    outgoing[u(e.destination)].insert(outgoing[u(e.destination)].end(), {kIn, e.source, e.weight});
  }
  std::vector<int> send_counts(u(n)), recv_counts(u(n), 0);
  for (int p = 0; p < n; ++p)
    send_counts[u(p)] = static_cast<int>(outgoing[u(p)].size());
  recv_counts[u(me)] = send_counts[u(me)];

  std::vector<RequestPtr> requests;
  for (int p = 0; p < n; ++p) {
    if (p == me)
      continue;
    requests.push_back(coll::irecv(c, p, &recv_counts[u(p)], 1, MPI_INT));
    requests.push_back(coll::isend(c, p, &send_counts[u(p)], 1, MPI_INT));
  }
  if (int err = coll::wait_all(c, requests))
    return err;

  std::vector<std::vector<int>> incoming(u(n));
  incoming[u(me)] = outgoing[u(me)];
  requests.clear();
  for (int p = 0; p < n; ++p) {
    if (p == me)
      continue;
    if (recv_counts[u(p)] > 0) {
      incoming[u(p)].resize(u(recv_counts[u(p)]));
      requests.push_back(coll::irecv(c, p, incoming[u(p)].data(), recv_counts[u(p)], MPI_INT));
    }
    if (send_counts[u(p)] > 0)
      requests.push_back(coll::isend(c, p, outgoing[u(p)].data(), send_counts[u(p)], MPI_INT));
  }
  if (int err = coll::wait_all(c, requests))
    return err;

  mine = Adjacency{};
  mine.weighted = weighted;
  for (const std::vector<int>& from : incoming)
    for (std::size_t k = 0; k + 2 < from.size(); k += 3)
      add(mine, &from[k], weighted);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::topology
