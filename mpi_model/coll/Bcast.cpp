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

void linear(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type, int root,
            std::int64_t /*total*/)
{
  if (c.me() != root) {
    s.recv(c, root, buf, count, type);
    return;
  }
  for (int k = 1; k < c.size(); ++k)
    s.send(c, (root + k) % c.size(), buf, count, type);
}

void binomial(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type, int root,
              std::int64_t /*total*/)
{
  bcast_binomial(s, c, buf, count, type, root);
}

// facts.bytes: the whole message.
std::string scatter_allgather_unusable(const CallFacts& f)
{
  if (f.processes < 2)
    return "it needs at least 2 processes";
  return f.bytes > 0 ? "" : "it scatters the data, and this call has none (0 bytes)";
}

// (total: the message's size in bytes.)
using BcastBuild = void(Schedule&, const Channel&, void* buf, std::int64_t count, MPI_Datatype, int root,
                        std::int64_t total);

const Algorithm<BcastBuild> kAlgorithms[] = {
    {{"binomial", "receive once from the parent, then send to the children; log2(n) rounds", nullptr}, binomial},
    {{"scatter_allgather",
      "binomial scatter of n blocks, then ring allgather (van de Geijn): about 2x the data per process; needs 2 "
      "processes and data",
      scatter_allgather_unusable},
     scatter_allgather},
    {{"linear", "the root sends to every process", nullptr}, linear},
};

const char* preferred(const CallFacts& f)
{
  return f.bytes >= 12288 && f.processes >= 8 ? "scatter_allgather" : "binomial";
}

}  // namespace

const CollectiveAlgorithms& bcast_algorithms()
{
  static const CollectiveAlgorithms coll("coll-bcast", "MPI_Bcast", &CollectiveParameters::bcast, preferred,
                                         "binomial below 12 KiB or 8 processes, else scatter_allgather as MPICH",
                                         kAlgorithms);
  return coll;
}

int build_bcast(Schedule& s, const Channel& c, void* buf, std::int64_t count, MPI_Datatype type,
                int root)
{
  std::int64_t total = count * type_size(type);
  CallFacts facts{c.size()};
  facts.bytes = total;
  kAlgorithms[choose(bcast_algorithms(), facts, c)].build(s, c, buf, count, type, root, total);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
