// MPI_Reduce: binomial tree. A process combines the partial results of its
// subtrees into its own (lower ranks always on the left of the operation:
// in = lower, inout = higher) and sends the result to its parent.
//
// Commutative operations use a tree rooted at `root` (ranks relative to
// it). Non-commutative ones reduce in rank order: the tree is rooted at rank
// 0, where every partial result covers a contiguous range of ranks, and
// rank 0 forwards the result to the root.

#include "coll/Reduce.hpp"

#include <utility>

namespace progsim::mpi::coll {

int reduce_to_root(const CollCall& c, const ReduceWork& w, std::int64_t items, WorkBuffer& acc, int root)
{
  int n = c.size();
  int me = c.me();
  int tree_root = w.commutative() ? root : 0;
  int rel = (me - tree_root + n) % n;
  WorkBuffer tmp = w.allocate(items);
  for (int mask = 1; mask < n; mask <<= 1) {
    if (rel & mask) {
      if (int err = send(c, (rel - mask + tree_root) % n, acc.base, w.message_count(items), w.message_type()))
        return err;
      break;
    }
    int child = rel | mask;
    if (child < n) {
      if (int err = recv(c, (child + tree_root) % n, tmp.base, w.message_count(items), w.message_type()))
        return err;
      w.combine(acc.base, tmp.base, items);  // tmp = acc (lower ranks) op tmp (higher)
      std::swap(acc, tmp);
    }
  }
  if (tree_root != root) {
    if (me == tree_root)
      return send(c, root, acc.base, w.message_count(items), w.message_type());
    if (me == root)
      return recv(c, tree_root, acc.base, w.message_count(items), w.message_type());
  }
  return MPI_SUCCESS;
}

int reduce(const CollCall& c, const void* sendbuf, void* recvbuf, std::int64_t count, MPI_Datatype type, MPI_Op op,
           int root)
{
  ReduceWork w;
  std::string detail;
  if (int err = w.init(c.b, type, op, detail))
    return err;
  WorkBuffer acc = w.allocate(count);
  w.load(sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count, acc.base);
  if (int err = reduce_to_root(c, w, count, acc, root))
    return err;
  if (c.me() == root)
    w.store(acc.base, count, recvbuf);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
