// MPI_Reduce algorithms:
//  binomial  a process combines the partial results of its subtrees into its
//            own and sends the result to its parent. Commutative operations
//            use a tree rooted at `root`; non-commutative ones reduce in rank
//            order on a tree rooted at rank 0 (every partial result covers a
//            contiguous range of ranks, lower ranks on the left), and rank 0
//            forwards the result to the root.
//  linear    the root receives every contribution at once and combines
//            them in rank order.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

namespace progsim::mpi::coll {

void reduce_binomial(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items, int root)
{
  int n = c.size();
  int me = c.me();
  int tree_root = w.commutative() ? root : 0;
  int rel = (me - tree_root + n) % n;
  std::byte* tmp = work_buffer(s, w, items);
  std::int64_t mcount = w.message_count(items);
  MPI_Datatype mtype = w.message_type();
  for (int mask = 1; mask < n; mask <<= 1) {
    if (rel & mask) {
      s.send(c, (rel - mask + tree_root) % n, acc, mcount, mtype);
      s.next_round();
      break;
    }
    int child = rel | mask;
    if (child < n) {
      s.recv(c, (child + tree_root) % n, tmp, mcount, mtype);
      s.local([&w, acc, tmp, items] {
        w.combine_after(acc, tmp, items);  // the child's ranks are above ours
        return MPI_SUCCESS;
      });
    }
  }
  if (tree_root != root) {
    if (me == tree_root)
      s.send(c, root, acc, mcount, mtype);
    if (me == root)
      s.recv(c, tree_root, acc, mcount, mtype);
    s.next_round();
  }
}

namespace {

void linear(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, std::int64_t items, int root)
{
  int n = c.size();
  if (c.me() != root) {
    s.send(c, root, acc, w.message_count(items), w.message_type());
    return;
  }
  std::vector<std::byte*> parts(static_cast<size_t>(n), acc);
  for (int i = 0; i < n; ++i)
    if (i != root) {
      parts[static_cast<size_t>(i)] = work_buffer(s, w, items);
      s.recv(c, i, parts[static_cast<size_t>(i)], w.message_count(items), w.message_type());
    }
  std::byte* result = work_buffer(s, w, items);
  s.local([&w, parts, result, acc, items] {
    w.copy(parts[0], result, items);
    for (std::size_t i = 1; i < parts.size(); ++i)
      w.combine_after(result, parts[i], items);
    w.copy(result, acc, items);
    return MPI_SUCCESS;
  });
}

using ReduceBuild = void(Schedule&, const Channel&, const ReduceWork&, std::byte* acc, std::int64_t items, int root);

const Algorithm<ReduceBuild> kAlgorithms[] = {
    {{"binomial",
      "partial results up a binomial tree; non-commutative operations on a tree in rank order rooted at 0, which "
      "forwards to the root",
      nullptr},
     reduce_binomial},
    {{"linear", "the root receives every contribution at once and combines them in rank order", nullptr}, linear},
};

const char* preferred(const CallFacts&)
{
  return "binomial";
}

}  // namespace

const CollectiveAlgorithms& reduce_algorithms()
{
  static const CollectiveAlgorithms coll("coll-reduce", "MPI_Reduce", &CollectiveParameters::reduce, preferred,
                                         "binomial", kAlgorithms);
  return coll;
}

int build_reduce(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                 std::int64_t count, MPI_Datatype type, MPI_Op op, int root)
{
  const ReduceWork& w = reduction(s, type, op);
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  std::byte* acc = load_step(s, w, input, count);
  kAlgorithms[choose(reduce_algorithms(), CallFacts{c.size()}, c)].build(s, c, w, acc, count, root);
  if (c.me() == root)
    store_step(s, w, acc, count, recvbuf);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
