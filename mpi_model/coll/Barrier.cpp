// MPI_Barrier algorithms:
//  dissemination  (Hensgen, Finkel & Manber) zero-byte messages: in round i
//                 every process sends to me + 2^i and receives from me - 2^i;
//                 ceil(log2 n) rounds.
//  tree           binomial fan-in to rank 0, then binomial fan-out.

#include "coll/Algorithms.hpp"
#include "coll/Selector.hpp"

namespace progsim::mpi::coll {

namespace {

void dissemination(Schedule& s, const Channel& c)
{
  int n = c.size();
  int me = c.me();
  for (int distance = 1; distance < n; distance <<= 1) {
    s.recv(c, (me - distance + n) % n, nullptr, 0, MPI_BYTE);
    s.send(c, (me + distance) % n, nullptr, 0, MPI_BYTE);
    s.next_round();
  }
}

void tree(Schedule& s, const Channel& c)
{
  int n = c.size();
  int me = c.me();
  for (int mask = 1; mask < n; mask <<= 1) {
    if (me & mask) {
      s.send(c, me - mask, nullptr, 0, MPI_BYTE);
      break;
    }
    if ((me | mask) < n)
      s.recv(c, me | mask, nullptr, 0, MPI_BYTE);
    s.next_round();
  }
  s.next_round();
  bcast_binomial(s, c, nullptr, 0, MPI_BYTE, 0);
}

using BarrierBuild = void(Schedule&, const Channel&);

const Algorithm<BarrierBuild> kAlgorithms[] = {
    {{"dissemination", "ceil(log2 n) rounds of zero-byte messages to me + 2^i", nullptr}, dissemination},
    {{"tree", "binomial fan-in to rank 0, then binomial fan-out", nullptr}, tree},
};

const char* preferred(const CallFacts&)
{
  return "dissemination";
}

}  // namespace

const CollectiveAlgorithms& barrier_algorithms()
{
  static const CollectiveAlgorithms coll("coll-barrier", "MPI_Barrier", &CollectiveParameters::barrier, preferred,
                                         "dissemination", kAlgorithms);
  return coll;
}

int build_barrier(Schedule& s, const Channel& c)
{
  kAlgorithms[choose(barrier_algorithms(), CallFacts{c.size()}, c)].build(s, c);
  return MPI_SUCCESS;
}

}  // namespace progsim::mpi::coll
