// MPI_Reduce_scatter(_block) algorithms (work format, see ReduceWork.hpp):
//  pairwise         (commutative operations) n - 1 rounds; in round k a
//                   process sends its input's block of rank me + k there and
//                   combines the block it receives from me - k into its own.
//  reduce_scatterv  binomial reduce of the whole vector to rank 0 in rank
//                   order, then rank 0 sends each process its block; serves
//                   non-commutative operations.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

namespace progsim::mpi::coll {

namespace {

void pairwise(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, const Counts& rcounts,
              const Counts& first)
{
  int n = c.size();
  int me = c.me();
  auto u = static_cast<size_t>(me);
  std::byte* mine = acc + w.item_offset(first[u]);
  std::int64_t items = rcounts[u];
  std::byte* tmp = work_buffer(s, w, items);
  for (int k = 1; k < n; ++k) {
    auto dst = static_cast<size_t>((me + k) % n);
    int src = (me - k + n) % n;
    s.send(c, static_cast<int>(dst), acc + w.item_offset(first[dst]), w.message_count(rcounts[dst]),
           w.message_type());
    s.recv(c, src, tmp, w.message_count(items), w.message_type());
    s.local([&w, tmp, mine, items] {
      w.combine(tmp, mine, items);  // commutative
      return MPI_SUCCESS;
    });
  }
}

void reduce_then_scatter(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* acc, const Counts& rcounts,
                         const Counts& first)
{
  int n = c.size();
  reduce_binomial(s, c, w, acc, first.back(), 0);
  s.next_round();
  if (c.me() != 0) {
    s.recv(c, 0, acc + w.item_offset(first[static_cast<size_t>(c.me())]),
           w.message_count(rcounts[static_cast<size_t>(c.me())]), w.message_type());
    return;
  }
  for (int i = 1; i < n; ++i) {
    auto u = static_cast<size_t>(i);
    s.send(c, i, acc + w.item_offset(first[u]), w.message_count(rcounts[u]), w.message_type());
  }
}

std::string pairwise_unusable(const CallFacts& f)
{
  if (!f.commutative)
    return "each process combines the blocks in the order they arrive, and the operation is not commutative";
  return f.processes > 1 ? "" : "it needs at least 2 processes";
}

using ReduceScatterBuild = void(Schedule&, const Channel&, const ReduceWork&, std::byte* acc, const Counts& rcounts,
                                const Counts& first);

const Algorithm<ReduceScatterBuild> kAlgorithms[] = {
    {{"pairwise", "n - 1 rounds exchanging the peers' blocks; commutative operations, 2 or more processes",
      pairwise_unusable},
     pairwise},
    {{"reduce_scatterv", "binomial reduce to rank 0 in rank order, then rank 0 sends each process its block",
      nullptr},
     reduce_then_scatter},
};

const char* preferred(const CallFacts& f)
{
  return pairwise_unusable(f).empty() ? "pairwise" : "reduce_scatterv";
}

}  // namespace

const CollectiveAlgorithms& reduce_scatter_algorithms()
{
  static const CollectiveAlgorithms coll("coll-reduce-scatter", "MPI_Reduce_scatter(_block)",
                                         &CollectiveParameters::reduce_scatter, preferred,
                                         "pairwise where it applies, else reduce_scatterv", kAlgorithms);
  return coll;
}

int build_reduce_scatter(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
                         const Counts& rcounts, MPI_Datatype type, MPI_Op op)
{
  const ReduceWork& w = reduction(s, type, op);
  Counts first = prefix(rcounts);
  std::int64_t total = first.back();
  const void* input = sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf;
  std::byte* acc = load_step(s, w, input, total);
  CallFacts facts{c.size(), total};
  facts.commutative = w.commutative();
  kAlgorithms[choose(reduce_scatter_algorithms(), facts, c)].build(s, c, w, acc, rcounts, first);
  auto u = static_cast<size_t>(c.me());
  std::byte* mine = acc + w.item_offset(first[u]);
  std::int64_t items = rcounts[u];
  store_step(s, w, mine, items, recvbuf);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
