// MPI_Gather(v) algorithms:
//  binomial  (MPI_Gather) each process packs its block, receives the packed
//            blocks of its subtree from its children and sends them all to
//            its parent; the root unpacks them into place. log2(n) rounds.
//  linear    the root posts one receive per process into its block; the
//            others send to the root. MPI_Gatherv uses it (binomial does
//            not apply to blocks of different sizes).

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

#include <algorithm>

namespace progsim::mpi::coll {

namespace {

void linear(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype,
            void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype, int root)
{
  int me = c.me();
  if (me != root) {
    s.send(c, root, sendbuf, scount, stype);
    return;
  }
  for (int i = 0; i < c.size(); ++i)
    if (i != me)
      s.recv(c, i, at(recvbuf, rdispls[static_cast<size_t>(i)]), rcounts[static_cast<size_t>(i)], rtype);
  if (sendbuf != MPI_IN_PLACE)
    copy_step(s, sendbuf, scount, stype, at(recvbuf, rdispls[static_cast<size_t>(me)]),
              rcounts[static_cast<size_t>(me)], rtype);
}

void binomial(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount, MPI_Datatype stype,
              void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype, int root)
{
  int n = c.size();
  int me = c.me();
  bool in_place = sendbuf == MPI_IN_PLACE;
  std::int64_t bs = me == root ? rcounts[0] * type_size(rtype) : scount * type_size(stype);
  int rel = (me - root + n) % n;
  int size = binomial_subtree(rel, n);
  std::byte* tmp = s.scratch(static_cast<size_t>(size * bs));
  if (!(me == root && in_place))
    copy_step(s, sendbuf, scount, stype, tmp, bs, MPI_BYTE);
  int mask = 1;
  for (; mask < n && !(rel & mask); mask <<= 1)
    if (rel + mask < n)
      s.recv(c, (rel + mask + root) % n, tmp + mask * bs, std::min(mask, n - rel - mask) * bs, MPI_BYTE);
  s.next_round();
  if (me != root) {
    s.send(c, (rel - mask + root) % n, tmp, size * bs, MPI_BYTE);
    return;
  }
  for (int r = 0; r < n; ++r) {
    int real = (r + root) % n;
    if (real == root && in_place)
      continue;
    copy_step(s, tmp + r * bs, bs, MPI_BYTE, at(recvbuf, rdispls[static_cast<size_t>(real)]),
              rcounts[static_cast<size_t>(real)], rtype);
  }
}

using GatherBuild = void(Schedule&, const Channel&, const void* sendbuf, std::int64_t scount, MPI_Datatype stype,
                         void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype, int root);

const Algorithm<GatherBuild> kAlgorithms[] = {
    {{"binomial", "packed blocks up a binomial tree; log2(n) rounds; MPI_Gather on 2 or more processes",
      packed_tree_unusable},
     binomial},
    {{"linear", "the root receives every block at once", nullptr}, linear},
};

}  // namespace

int binomial_subtree(int rel, int n)
{
  int low = rel == 0 ? n : (rel & -rel);
  return std::min(low, n - rel);
}

std::string packed_tree_unusable(const CallFacts& f)
{
  if (!f.regular)
    return "its tree packs blocks of one size, and the v variant's blocks may differ";
  return f.processes > 1 ? "" : "it needs at least 2 processes";
}

// Below 8 processes the root's concurrent receives (sends) beat the tree's
// log2(n) latencies.
const char* packed_tree_preferred(const CallFacts& f)
{
  return f.regular && f.processes >= 8 ? "binomial" : "linear";
}

const CollectiveAlgorithms& gather_algorithms()
{
  static const CollectiveAlgorithms coll("coll-gather", "MPI_Gather(v)", &CollectiveParameters::gather,
                                         packed_tree_preferred,
                                         "binomial from 8 processes, else linear (MPI_Gatherv: linear)",
                                         kAlgorithms);
  return coll;
}

int build_gatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                  MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype,
                  int root, bool regular)
{
  CallFacts facts{c.size()};
  facts.regular = regular;
  kAlgorithms[choose(gather_algorithms(), facts, c)].build(s, c, sendbuf, scount, stype, recvbuf, rcounts, rdispls,
                                                           rtype, root);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
