// MPI_Bcast algorithms:
//  binomial           a process receives once from its parent (relative
//                     rank minus its lowest set bit), then sends to its
//                     children, farthest subtree first.
//  scatter_allgather  (van de Geijn) the root's packed data is scattered in
//                     n blocks down a binomial tree, then a ring allgather
//                     completes every copy: about 2x the data per process
//                     instead of log2(n)x; for large messages.
//  linear             the root sends to every process.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

#include "MpiModel.hpp"

#include <algorithm>

namespace progsim::mpi::coll {

void bcast_binomial(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type, int root)
{
  int n = c.size();
  if (n == 1)
    return;
  int rel = (c.me() - root + n) % n;
  int mask = 1;
  while (mask < n) {
    if (rel & mask) {
      s.recv(c, (rel - mask + root) % n, buf, count, type);
      break;
    }
    mask <<= 1;
  }
  s.next_round();
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      s.send(c, (rel + mask + root) % n, buf, count, type);
  s.next_round();
}

namespace {

void scatter_allgather(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type, int root,
                       std::int64_t total)
{
  int n = c.size();
  int me = c.me();
  int rel = (me - root + n) % n;
  auto real = [&](int r) { return ((r % n + n) % n + root) % n; };
  std::byte* bytes = s.scratch(static_cast<size_t>(total));
  std::int64_t block = (total + n - 1) / n;
  auto lo = [&](std::int64_t r) { return std::min(r * block, total); };
  if (me == root)
    copy_step(s, buf, count, type, bytes, total, MPI_BYTE);
  // Binomial scatter: relative rank r receives blocks [r, r + subtree).
  int mask = 1;
  while (mask < n) {
    if (rel & mask) {
      s.recv(c, real(rel - mask), bytes + lo(rel), lo(rel + mask) - lo(rel), MPI_BYTE);
      break;
    }
    mask <<= 1;
  }
  s.next_round();
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      s.send(c, real(rel + mask), bytes + lo(rel + mask), lo(rel + 2 * mask) - lo(rel + mask), MPI_BYTE);
  s.next_round();
  // Ring allgather of the blocks.
  for (int k = 0; k < n - 1; ++k) {
    int out = ((rel - k) % n + n) % n;
    int in = ((rel - k - 1) % n + n) % n;
    s.send(c, real(rel + 1), bytes + lo(out), lo(out + 1) - lo(out), MPI_BYTE);
    s.recv(c, real(rel - 1), bytes + lo(in), lo(in + 1) - lo(in), MPI_BYTE);
    s.next_round();
  }
  if (me != root)
    copy_step(s, bytes, total, MPI_BYTE, buf, count, type);
}

void linear(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type, int root)
{
  if (c.me() != root) {
    s.recv(c, root, buf, count, type);
    return;
  }
  for (int k = 1; k < c.size(); ++k)
    s.send(c, (root + k) % c.size(), buf, count, type);
}

}  // namespace

int build_bcast(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type,
                int root)
{
  dt::DatatypePtr t = MpiModel::instance().datatypes().find(type);
  std::int64_t total = t ? count * t->size() : 0;
  const std::string& choice = collective_parameters().bcast;
  int n = c.size();
  if (choice == "linear")
    linear(s, c, buf, count, type, root);
  else if (n > 1 && total > 0 &&
           (choice == "scatter_allgather" || (choice == "auto" && total >= 12288 && n >= 8)))
    scatter_allgather(s, c, buf, count, type, root, total);
  else
    bcast_binomial(s, c, buf, count, type, root);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
