// MPI_Scatter(v) algorithms:
//  binomial  (MPI_Scatter) the root packs every block in tree order; each
//            process receives its subtree's blocks from its parent, passes
//            its children theirs and unpacks its own. log2(n) rounds.
//  linear    the root sends each process its block and copies its own; the
//            others receive from the root. MPI_Scatterv uses it (binomial
//            does not apply to blocks of different sizes).

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

#include <algorithm>

namespace progsim::mpi::coll {

namespace {

void linear(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts, const Counts& sdispls,
            MPI_Datatype stype, void* recvbuf, std::int64_t rcount, MPI_Datatype rtype, int root)
{
  int n = c.size();
  int me = c.me();
  if (me != root) {
    s.recv(c, root, recvbuf, rcount, rtype);
    return;
  }
  for (int k = 1; k < n; ++k) {
    auto i = static_cast<size_t>((me + k) % n);
    s.send(c, static_cast<int>(i), at(sendbuf, sdispls[i]), scounts[i], stype);
  }
  if (recvbuf != MPI_IN_PLACE)
    copy_step(s, at(sendbuf, sdispls[static_cast<size_t>(me)]), scounts[static_cast<size_t>(me)], stype, recvbuf,
              rcount, rtype);
}

void binomial(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts, const Counts& sdispls,
              MPI_Datatype stype, void* recvbuf, std::int64_t rcount, MPI_Datatype rtype, int root)
{
  int n = c.size();
  int me = c.me();
  std::int64_t bs = me == root ? scounts[0] * type_size(stype) : rcount * type_size(rtype);
  int rel = (me - root + n) % n;
  int size = binomial_subtree(rel, n);
  std::byte* tmp = s.scratch(static_cast<size_t>(size * bs));
  if (me == root)
    for (int r = 0; r < n; ++r) {
      auto real = static_cast<size_t>((r + root) % n);
      copy_step(s, at(sendbuf, sdispls[real]), scounts[real], stype, tmp + r * bs, bs, MPI_BYTE);
    }
  int mask = 1;
  while (mask < n && !(rel & mask))
    mask <<= 1;
  if (me != root)
    s.recv(c, (rel - mask + root) % n, tmp, size * bs, MPI_BYTE);
  s.next_round();
  for (mask >>= 1; mask > 0; mask >>= 1)
    if (rel + mask < n)
      s.send(c, (rel + mask + root) % n, tmp + mask * bs, std::min(mask, n - rel - mask) * bs, MPI_BYTE);
  s.next_round();
  if (recvbuf != MPI_IN_PLACE)
    copy_step(s, tmp, bs, MPI_BYTE, recvbuf, rcount, rtype);
}

using ScatterBuild = void(Schedule&, const Channel&, const void* sendbuf, const Counts& scounts,
                          const Counts& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount,
                          MPI_Datatype rtype, int root);

const Algorithm<ScatterBuild> kAlgorithms[] = {
    {{"binomial", "packed blocks down a binomial tree; log2(n) rounds; MPI_Scatter on 2 or more processes",
      packed_tree_unusable},
     binomial},
    {{"linear", "the root sends every block at once", nullptr}, linear},
};

}  // namespace

const CollectiveAlgorithms& scatter_algorithms()
{
  static const CollectiveAlgorithms coll("coll-scatter", "MPI_Scatter(v)", &CollectiveParameters::scatter,
                                         packed_tree_preferred, "binomial from 8 processes, else linear (MPI_Scatterv: linear)",
                                         kAlgorithms);
  return coll;
}

int build_scatterv(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                   const Counts& sdispls, MPI_Datatype stype, void* recvbuf, std::int64_t rcount, MPI_Datatype rtype,
                   int root, bool regular)
{
  CallFacts facts{c.size()};
  facts.regular = regular;
  kAlgorithms[choose(scatter_algorithms(), facts, c)].build(s, c, sendbuf, scounts, sdispls, stype, recvbuf, rcount,
                                                            rtype, root);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
