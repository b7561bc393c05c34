// MPI_Alltoall(v,w) algorithms:
//  linear    every receive and every send posted at once.
//  pairwise  n - 1 rounds; in round k a process sends to me + k and
//            receives from me - k (one exchange in flight: for large blocks).
// The own block is copied locally. With MPI_IN_PLACE the outgoing blocks
// are first packed out of recvbuf (sent as MPI_PACKED), since the receives
// overwrite them.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

#include "MpiModel.hpp"
#include "datatype/Pack.hpp"

namespace progsim::mpi::coll {

namespace {

// What a process sends to and receives from each peer.
struct Exchange {
  std::vector<const void*> out;
  std::vector<std::int64_t> out_count;
  std::vector<MPI_Datatype> out_type;
  void* recvbuf;
  const Counts& rcounts;
  const Counts& rdispls;
  const std::vector<MPI_Datatype>& rtypes;
};

// In step k a process receives from me - k and sends to me + k; `rounds`:
// one step at a time.
void exchange(Schedule& s, const Channel& c, const Exchange& x, bool rounds)
{
  int n = c.size();
  int me = c.me();
  for (int k = 1; k < n; ++k) {
    auto src = static_cast<size_t>((me - k + n) % n);
    auto dst = static_cast<size_t>((me + k) % n);
    s.recv(c, static_cast<int>(src), at(x.recvbuf, x.rdispls[src]), x.rcounts[src], x.rtypes[src]);
    s.send(c, static_cast<int>(dst), x.out[dst], x.out_count[dst], x.out_type[dst]);
    if (rounds)
      s.next_round();
  }
}

void linear(Schedule& s, const Channel& c, const Exchange& x)
{
  exchange(s, c, x, false);
}

void pairwise(Schedule& s, const Channel& c, const Exchange& x)
{
  exchange(s, c, x, true);
}

using AlltoallBuild = void(Schedule&, const Channel&, const Exchange&);

const Algorithm<AlltoallBuild> kAlgorithms[] = {
    {{"linear", "every receive and every send posted at once", nullptr}, linear},
    {{"pairwise", "n - 1 rounds, one exchange in flight: for large blocks", nullptr}, pairwise},
};

// facts.bytes: one block (MPI_Alltoall; 0 for the v and w variants).
const char* preferred(const CallFacts& f)
{
  return f.bytes >= 32768 ? "pairwise" : "linear";
}

}  // namespace

const CollectiveAlgorithms& alltoall_algorithms()
{
  static const CollectiveAlgorithms coll("coll-alltoall", "MPI_Alltoall(v,w)", &CollectiveParameters::alltoall,
                                         preferred, "linear below 32 KiB per block, else pairwise", kAlgorithms);
  return coll;
}

int build_alltoallw(Schedule& s, const Channel& c, const void* sendbuf, const Counts& scounts,
                    const Counts& sdispls, const std::vector<MPI_Datatype>& stypes, void* recvbuf,
                    const Counts& rcounts, const Counts& rdispls, const std::vector<MPI_Datatype>& rtypes,
                    bool regular)
{
  int n = c.size();
  int me = c.me();
  bool in_place = sendbuf == MPI_IN_PLACE;
  DatatypeTable& types = MpiModel::instance().datatypes();
  Exchange x{std::vector<const void*>(static_cast<size_t>(n)), std::vector<std::int64_t>(static_cast<size_t>(n)),
             std::vector<MPI_Datatype>(static_cast<size_t>(n)), recvbuf, rcounts, rdispls, rtypes};
  for (int i = 0; i < n; ++i) {
    auto u = static_cast<size_t>(i);
    if (!in_place) {
      x.out[u] = at(sendbuf, sdispls[u]);
      x.out_count[u] = scounts[u];
      x.out_type[u] = stypes[u];
      continue;
    }
    dt::DatatypePtr t = types.find(rtypes[u]);
    if (!t)
      return MPI_ERR_TYPE;
    std::int64_t bytes = i == me ? 0 : dt::packed_size(*t, rcounts[u]);
    std::byte* packed = s.scratch(static_cast<size_t>(bytes));
    if (bytes > 0)
      copy_step(s, at(recvbuf, rdispls[u]), rcounts[u], rtypes[u], packed, bytes, MPI_PACKED);
    x.out[u] = packed;
    x.out_count[u] = bytes;
    x.out_type[u] = MPI_PACKED;
  }
  CallFacts facts{n};
  facts.bytes = regular ? rcounts[0] * type_size(rtypes[0]) : 0;
  facts.regular = regular;
  kAlgorithms[choose(alltoall_algorithms(), facts, c)].build(s, c, x);
  if (!in_place) {
    auto u = static_cast<size_t>(me);
    copy_step(s, x.out[u], x.out_count[u], x.out_type[u], at(recvbuf, rdispls[u]), rcounts[u], rtypes[u]);
  }
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
