// MPI_Gather(v) algorithms:
//  binomial  (MPI_Gather) each process packs its block, receives the packed
//            blocks of its subtree from its children and sends them all to
//            its parent; the root unpacks them into place. log2(n) rounds.
//  linear    the root posts one receive per process into its block; the
//            others send to the root. MPI_Gatherv always uses it.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

#include "MpiModel.hpp"

#include <algorithm>

namespace progsim::mpi::coll {

namespace {

std::int64_t type_size(MPI_Datatype type)
{
  dt::DatatypePtr t = MpiModel::instance().datatypes().find(type);
  return t ? t->size() : 0;
}

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

}  // namespace

int binomial_subtree(int rel, int n)
{
  int low = rel == 0 ? n : (rel & -rel);
  return std::min(low, n - rel);
}

int build_gatherv(Schedule& s, const Channel& c, const void* sendbuf, std::int64_t scount,
                  MPI_Datatype stype, void* recvbuf, const Counts& rcounts, const Counts& rdispls, MPI_Datatype rtype,
                  int root, bool regular)
{
  int n = c.size();
  int me = c.me();
  const std::string& choice = collective_parameters().gather;
  // Below 8 processes the root's concurrent receives beat the tree's
  // log2(n) latencies.
  bool tree = choice == "binomial" || (choice == "auto" && n >= 8);
  if (!regular || !tree || n == 1) {
    linear(s, c, sendbuf, scount, stype, recvbuf, rcounts, rdispls, rtype, root);
    return MPI_SUCCESS;
  }
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
    return MPI_SUCCESS;
  }
  for (int r = 0; r < n; ++r) {
    int real = (r + root) % n;
    if (real == root && in_place)
      continue;
    copy_step(s, tmp + r * bs, bs, MPI_BYTE, at(recvbuf, rdispls[static_cast<size_t>(real)]),
              rcounts[static_cast<size_t>(real)], rtype);
  }
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
