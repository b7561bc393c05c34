// MPI_Scan and MPI_Exscan algorithms (work format, see ReduceWork.hpp):
//  recursive_doubling  log2(n) exchanges of partial results with me ^ 2^k;
//                      a process folds in what comes from below it (lower
//                      ranks on the left), so any operation works.
//  linear              a chain in rank order: rank r receives the prefix of
//                      ranks 0..r-1 from r - 1 and passes on prefix op x_r.
// Exscan leaves rank 0's receive buffer untouched (MPI-4.1 §6.11.2).

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

namespace progsim::mpi::coll {

namespace {

// result: scan -> inclusive prefix; exscan -> prefix of the ranks below
// (valid when me > 0).
void recursive_doubling(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* mine, std::byte* result,
                        std::int64_t items, bool exclusive)
{
  int n = c.size();
  int me = c.me();
  std::byte* partial = work_buffer(s, w, items);  // op over the ranks of my current group
  std::byte* tmp = work_buffer(s, w, items);
  auto has_result = std::make_shared<bool>(!exclusive);
  s.local([&w, mine, partial, result, items, exclusive] {
    w.copy(mine, partial, items);
    if (!exclusive)
      w.copy(mine, result, items);
    return MPI_SUCCESS;
  });
  for (int mask = 1; mask < n; mask <<= 1) {
    int dst = me ^ mask;
    if (dst >= n)
      continue;
    s.send(c, dst, partial, w.message_count(items), w.message_type());
    s.recv(c, dst, tmp, w.message_count(items), w.message_type());
    bool below = dst < me;
    s.local([&w, partial, tmp, result, items, below, has_result] {
      if (below) {
        // theirs covers ranks below all of mine
        if (*has_result) {
          w.combine(tmp, result, items);
        } else {
          w.copy(tmp, result, items);
          *has_result = true;
        }
        w.combine(tmp, partial, items);
      } else {
        w.combine_after(partial, tmp, items);
      }
      return MPI_SUCCESS;
    });
  }
}

void linear(Schedule& s, const Channel& c, const ReduceWork& w, std::byte* mine, std::byte* result,
            std::int64_t items, bool exclusive)
{
  int n = c.size();
  int me = c.me();
  std::byte* forward = mine;  // what goes to me + 1: prefix op x_me
  if (me > 0) {
    std::byte* prefix_in = work_buffer(s, w, items);
    s.recv(c, me - 1, prefix_in, w.message_count(items), w.message_type());
    s.local([&w, prefix_in, mine, result, items, exclusive] {
      if (exclusive)
        w.copy(prefix_in, result, items);
      w.combine(prefix_in, mine, items);  // mine = prefix op x_me
      if (!exclusive)
        w.copy(mine, result, items);
      return MPI_SUCCESS;
    });
  } else if (!exclusive) {
    s.local([&w, mine, result, items] {
      w.copy(mine, result, items);
      return MPI_SUCCESS;
    });
  }
  if (me + 1 < n)
    s.send(c, me + 1, forward, w.message_count(items), w.message_type());
}

using ScanBuild = void(Schedule&, const Channel&, const ReduceWork&, std::byte* mine, std::byte* result,
                      std::int64_t items, bool exclusive);

const Algorithm<ScanBuild> kAlgorithms[] = {
    {{"recursive_doubling", "log2(n) exchanges of partial results; any operation", nullptr}, recursive_doubling},
    {{"linear", "a chain in rank order", nullptr}, linear},
};

const char* preferred(const CallFacts&)
{
  return "recursive_doubling";
}

}  // namespace

const CollectiveAlgorithms& scan_algorithms()
{
  static const CollectiveAlgorithms coll("coll-scan", "MPI_Scan and MPI_Exscan", &CollectiveParameters::scan,
                                         preferred, "recursive_doubling", kAlgorithms);
  return coll;
}

int build_scan(Schedule& s, const Channel& c, const void* sendbuf, void* recvbuf,
               std::int64_t count, MPI_Datatype type, MPI_Op op, bool exclusive)
{
  const ReduceWork& w = reduction(s, type, op);
  std::byte* mine = load_step(s, w, sendbuf == MPI_IN_PLACE ? recvbuf : sendbuf, count);
  std::byte* result = work_buffer(s, w, count);
  kAlgorithms[choose(scan_algorithms(), CallFacts{c.size()}, c)].build(s, c, w, mine, result, count, exclusive);
  if (!exclusive || c.me() > 0)
    store_step(s, w, result, count, recvbuf);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
