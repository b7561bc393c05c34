#include "diagnosis/WaitChains.hpp"

#include <map>

namespace progsim::mpi {

WaitChains find_wait_chains(const std::vector<RankView>& views)
{
  WaitChains chains;
  const int n = static_cast<int>(views.size());
  auto is = [&](int r, auto state) { return r >= 0 && views[static_cast<size_t>(r)].state == state; };
  // Follow the chain of first edges from each blocked rank.
  for (int start = 0; start < n && chains.cycle.empty() && chains.ended_at < 0; ++start) {
    if (!is(start, RankView::Blocked) || !next_edge(views[static_cast<size_t>(start)]))
      continue;
    std::vector<int> path;
    std::map<int, size_t> position;
    int r = start;
    while (is(r, RankView::Blocked) && !position.count(r)) {
      position[r] = path.size();
      path.push_back(r);
      const WaitEdge* e = next_edge(views[static_cast<size_t>(r)]);
      r = e ? e->to : -1;
    }
    if (r >= 0 && position.count(r))
      chains.cycle.assign(path.begin() + static_cast<long>(position[r]), path.end());
    else if (is(r, RankView::Finished))
      chains.ended_at = r;
  }
  // A blocked call waiting for a chunk of a rank that stays in user code.
  for (int r = 0; r < n && !chains.starved; ++r)
    for (const WaitEdge& e : views[static_cast<size_t>(r)].edges)
      if (e.kind == WaitKind::ProgressChunk && is(r, RankView::Blocked) && is(e.to, RankView::Polling) &&
          !chains.starved)
        chains.starved = &e;
  // A wait caused by an error of the program: whatever the implementation
  // freedoms, the program is incorrect.
  for (int r = 0; r < n && !chains.erroneous; ++r)
    for (const WaitEdge& e : views[static_cast<size_t>(r)].edges)
      if (!e.error.empty() && is(r, RankView::Blocked) && !chains.erroneous)
        chains.erroneous = &e;
  return chains;
}

}  // namespace progsim::mpi
